import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, submitWith } from "../../components/ui/field";
import { Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { ConflictNotice, isConflict } from "./conflict";
import { FieldEditor } from "./field-editor";
import { fieldProblems, newRow, rowsOf } from "./field-rules";
import { type FormDetail, formQuery, updateForm } from "./queries";

const route = getRouteApi("/app/forms/$formId/fields");

/** Moves focus to a row's control once it has been re-rendered in its new place. */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());

/** The schema being edited, from the version it was read at (`base`: sent as ifUpdatedAt). */
function Builder({ form, onReload }: { form: FormDetail; onReload: () => Promise<unknown> }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [rows, setRows] = useState(() => rowsOf(form.fields));
  const [base, setBase] = useState(form.updatedAt);
  const [checked, setChecked] = useState(false);
  const [removed, setRemoved] = useState<string[]>([]);
  const problems = fieldProblems(rows);
  const save = useMutation({
    mutationFn: () =>
      updateForm(form.id, {
        fields: rows.map((r, i) => ({
          key: r.key.trim(),
          label: r.label.trim(),
          type: r.type,
          required: r.required,
          order: i + 1,
        })),
        ifUpdatedAt: base,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.forms.one(form.id), saved);
      setRows(rowsOf(saved.fields));
      setBase(saved.updatedAt);
      setRemoved([]);
      setChecked(false);
      toast("Fields saved");
      void queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(form.siteId) });
    },
  });
  const error = apiError(save.error);
  const conflict = isConflict(save.error);
  const reload = async () => {
    const fresh = await onReload();
    const current = (fresh as { data?: FormDetail }).data ?? form;
    setRows(rowsOf(current.fields));
    setBase(current.updatedAt);
    setRemoved([]);
    setChecked(false);
    save.reset();
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    if (!row) return;
    next.splice(index + by, 0, row);
    setRows(next);
    const target = index + by;
    const edge = by === -1 ? target === 0 : target === next.length - 1;
    focusSoon(`${row.id}-${(by === -1) !== edge ? "up" : "down"}`);
  };
  const submit = submitWith(() => {
    setChecked(true);
    if (problems.some((p) => p.key || p.label)) return;
    save.mutate();
  });
  return (
    <form onSubmit={submit} aria-labelledby="fields-heading" noValidate>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="fields-heading" className="text-xl font-semibold">
            Fields
          </h2>
          <Muted className="mt-1 max-w-3xl">
            {form.origin === "webhook"
              ? "This form grows from what its sources send: a submission with a key the form does not have yet adds a field for it. Relabel, retype and reorder them here."
              : "You built this form: its fields stay as you make them. Data sent under other keys is still stored with each submission, without joining the form."}
          </Muted>
          <Muted className="mt-1 max-w-3xl">
            <strong>Removing a field keeps the data already collected:</strong> it stays on every submission, in the inbox, the
            API and exports.
          </Muted>
        </div>
      </div>
      {conflict && <ConflictNotice onReload={() => void reload()} />}
      {rows.length === 0 ? (
        <Muted className="mb-4">No fields yet.</Muted>
      ) : (
        <ol className="mb-4 flex flex-col gap-3" aria-label="Fields of the form">
          {rows.map((row, i) => (
            <FieldEditor
              key={row.id}
              row={row}
              index={i}
              last={i === rows.length - 1}
              problems={{
                key: (checked ? problems[i]?.key : undefined) ?? error?.field(`fields.${i}.key`),
                label: (checked ? problems[i]?.label : undefined) ?? error?.field(`fields.${i}.label`),
              }}
              onChange={(next) => setRows(rows.map((r) => (r.id === row.id ? next : r)))}
              onMove={(by) => move(i, by)}
              onRemove={() => {
                setRows(rows.filter((r) => r.id !== row.id));
                if (row.saved) setRemoved([...removed, row.label || row.key]);
              }}
            />
          ))}
        </ol>
      )}
      {removed.length > 0 && (
        <p role="status" className="mb-4 text-sm">
          Removed on saving: {removed.join(", ")}. Their data already collected stays on the submissions.
        </p>
      )}
      {!conflict && <FormError message={error?.formMessage ?? (error ? error.message : undefined)} />}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => {
            setRows([...rows, newRow()]);
            // The new field's label, the first thing to fill in.
            requestAnimationFrame(() =>
              document.querySelector<HTMLInputElement>('[aria-label="Fields of the form"] > li:last-child input')?.focus(),
            );
          }}
        >
          Add a field
        </Button>
        <Button type="submit" disabled={save.isPending || conflict}>
          {save.isPending ? "Saving…" : "Save fields"}
        </Button>
      </div>
    </form>
  );
}

/** The builder: add, relabel, reorder, retype, require and remove fields; Save sends the whole schema. */
export function FieldsPage() {
  const { formId } = route.useParams();
  const form = useQuery(formQuery(formId));
  if (form.isPending) return <Loading />;
  if (form.isError) return <FormError message={form.error.message} />;
  // Keyed by the form: another form's builder starts from its own schema.
  return <Builder key={form.data.id} form={form.data} onReload={() => form.refetch()} />;
}
