import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { useToast } from "../../components/ui/toast";
import { archiveSource, deleteSource, rotateSecret, type Source, updateSource } from "./queries";

/**
 * One thing done to a source: a toast says what happened ("Contact form archived"), then the
 * site's sources and forms are read again (lists and counts move between tabs, and a permanent
 * deletion can take a form along).
 */
function useSourceMutation<Input>(
  siteId: string,
  source: Source,
  run: (input: Input) => Promise<unknown>,
  done: (input: Input) => string,
) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: run,
    onSuccess: async (_, input) => {
      toast(`${source.name} ${done(input)}`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.ofSite(siteId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(siteId) }),
      ]);
    },
  });
}

/** What a source's row can do to it, each its own mutation; `onRotated` gets a new secret to show once. */
export function useSourceActions(siteId: string, source: Source, onRotated: (secret: string) => void) {
  const id = source.id;
  const setEnabled = useSourceMutation(
    siteId,
    source,
    (isEnabled: boolean) => updateSource(siteId, id, { isEnabled }),
    (isEnabled) => (isEnabled ? "enabled" : "disabled"),
  );
  const restore = useSourceMutation(
    siteId,
    source,
    () => updateSource(siteId, id, { restore: true }),
    () => "restored (disabled until you enable it)",
  );
  const archive = useSourceMutation(
    siteId,
    source,
    () => archiveSource(siteId, id),
    () => "archived",
  );
  const remove = useSourceMutation(
    siteId,
    source,
    () => deleteSource(siteId, id),
    () => "permanently deleted",
  );
  const rotate = useSourceMutation(
    siteId,
    source,
    async () => onRotated((await rotateSecret(siteId, id)).secretKey),
    () => "has a new secret",
  );
  const all = [setEnabled, restore, archive, remove, rotate];
  // The error shown is the last action's, as one try after another replaces the message.
  const last = all.reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a));
  return {
    setEnabled,
    restore,
    archive,
    remove,
    rotate,
    pending: all.some((m) => m.isPending),
    error: apiError(last.error)?.message,
  };
}
