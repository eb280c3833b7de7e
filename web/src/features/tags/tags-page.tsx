import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { Loading, PageHeader } from "../../components/ui/page";
import { Section } from "../../components/ui/section";
import { TagChip } from "../../components/ui/tag-chip";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { refusal, useMe } from "../../lib/access";
import { type Tag, tagsQuery } from "../../lib/triage";
import { createTag, deleteTag, TAG_LIMIT, type TagInput, updateTag } from "./queries";
import { TagForm } from "./tag-form";

function TagRow({ tag, mayEdit, mayDelete }: { tag: Tag; mayEdit: boolean; mayDelete: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.tags });
  const save = useMutation({
    mutationFn: (input: TagInput) => updateTag(tag.id, input),
    onSuccess: async (saved) => {
      setEditing(false);
      toast(`Tag ${saved.name} saved`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteTag(tag.id),
    onSuccess: async () => {
      toast(`Tag ${tag.name} deleted`);
      await refresh();
    },
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 py-2 dark:border-slate-700">
      <TagChip name={tag.name} colour={tag.colour} />
      <div className="flex flex-wrap gap-2">
        {mayEdit && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit<span className="sr-only"> {tag.name}</span>
          </Button>
        )}
        {mayDelete && (
          <ConfirmButton
            label={`Delete ${tag.name}`}
            variant="ghost"
            title={`Delete the tag ${tag.name}?`}
            description="It is taken off every lead that has it. The leads themselves stay."
            confirmLabel="Delete tag"
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      <FormError message={apiError(remove.error)?.message} className="w-full" />
      <Modal
        open={editing}
        onOpenChange={(open) => {
          setEditing(open);
          if (!open) save.reset();
        }}
        title={`Edit the tag ${tag.name}`}
      >
        <TagForm
          initial={{ name: tag.name, colour: tag.colour }}
          submitLabel="Save tag"
          onSave={(input) => save.mutate(input)}
          pending={save.isPending}
          error={apiError(save.error)}
        />
      </Modal>
    </li>
  );
}

/**
 * Settings → Tags: the organization's tags, which any lead of any form can carry.
 * Members who edit forms create and change them; deleting one needs the right to delete forms.
 */
export function TagsPage() {
  const me = useMe();
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useQuery(tagsQuery);
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: createTag,
    onSuccess: async (tag) => {
      toast(`Tag ${tag.name} created`);
      setFormKey((k) => k + 1);
      await queryClient.invalidateQueries({ queryKey: queryKeys.tags });
    },
  });
  const editRefusal = refusal(me, "forms.edit");
  const tags = list.data ?? [];
  const full = tags.length >= TAG_LIMIT;
  return (
    <>
      <PageHeader
        title="Tags"
        description="Tags sort leads across every form: a lead carries up to 10. Each colour reads well in the light and the dark theme."
      />
      <div className="flex flex-col gap-6">
        <Section id="tags-list" title={`Tags (${tags.length} of ${TAG_LIMIT})`}>
          {list.isPending && <Loading />}
          {list.isError && <FormError message={list.error.message} />}
          {list.isSuccess && tags.length === 0 && <Muted>No tags yet.</Muted>}
          {tags.length > 0 && (
            <ul aria-label="Tags">
              {tags.map((tag) => (
                <TagRow key={tag.id} tag={tag} mayEdit={!editRefusal} mayDelete={!refusal(me, "forms.delete")} />
              ))}
            </ul>
          )}
        </Section>
        <Section id="tags-new" title="New tag">
          {editRefusal ? (
            <Muted>{editRefusal}</Muted>
          ) : full ? (
            <Muted>The organization has {TAG_LIMIT} tags, the most it can have. Delete one to make another.</Muted>
          ) : (
            <TagForm
              key={formKey}
              initial={{ name: "", colour: "blue" }}
              submitLabel="Create tag"
              onSave={(input) => create.mutate(input)}
              pending={create.isPending}
              error={apiError(create.error)}
            />
          )}
        </Section>
      </div>
    </>
  );
}
