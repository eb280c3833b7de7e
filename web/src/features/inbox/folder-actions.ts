import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { useToast } from "../../components/ui/toast";
import { bulkDelete, setSpam } from "./queries";

/**
 * What a folder does to the submissions picked in it: move them to spam or back to the inbox,
 * and delete them for good. Each says how many in a toast, then `onDone` runs and the form's
 * folders and counts are read again.
 */
export function useFolderActions(formId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = async () => {
    onDone();
    await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(formId) });
  };
  const moderate = useMutation({
    mutationFn: async ({ ids, isSpam }: { ids: string[]; isSpam: boolean }) => {
      for (const id of ids) await setSpam(id, isSpam);
      return { count: ids.length, isSpam };
    },
    onSuccess: async ({ count, isSpam }) => {
      toast(`${count} ${count === 1 ? "submission" : "submissions"} ${isSpam ? "moved to spam" : "moved to the inbox"}`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) => bulkDelete(ids),
    onSuccess: async (result) => {
      toast(`${result.data.deleted} deleted`);
      await refresh();
    },
  });
  const error = [moderate.error, remove.error].find((e) => e instanceof ApiError)?.message;
  return { moderate: moderate.mutate, remove: remove.mutate, error };
}
