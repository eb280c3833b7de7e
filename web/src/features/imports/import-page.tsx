import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { card, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { refusal, useMe } from "../../lib/access";
import { count } from "../../lib/words";
import { FilePicker } from "./file-picker";
import { ImportProgress, PastImports } from "./import-job";
import { describeFile, type FieldChoice, MappingTable, Problems, SampleRows } from "./import-preview";
import { type ImportRequest, type ImportSource, importsQuery, previewImport, startImport } from "./queries";

/**
 * A form's Import page (docs/importing.md): a file, its preview (the detected format, each column
 * mapped to a field, the first rows as they will be stored, problems by line), then the import
 * with its progress and summary, and the form's past imports.
 */
export function ImportPage({ formId, fields }: { formId: string; fields: FieldChoice[] }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<ImportRequest>();
  const [source, setSource] = useState<ImportSource>();
  const [jobId, setJobId] = useState<string>();
  // An import still running (started before this page was opened, here or elsewhere) shows its progress.
  const running = useQuery(importsQuery(formId)).data?.find((job) => job.status === "running");
  const shownJob = jobId ?? running?.id;
  const preview = useMutation({ mutationFn: (r: ImportRequest) => previewImport(formId, r) });
  const start = useMutation({
    mutationFn: (r: ImportRequest) => startImport(formId, r),
    onSuccess: async (job) => {
      setJobId(job.id);
      setRequest(undefined);
      preview.reset();
      await queryClient.invalidateQueries({ queryKey: queryKeys.imports.ofForm(formId) });
    },
  });
  const jobHeading = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (jobId) jobHeading.current?.focus();
  }, [jobId]);
  const change = (next: ImportRequest) => {
    setRequest(next);
    start.reset();
    preview.mutate(next);
  };
  // Owners and admins import (`submissions.import`, a session's only: no API key may hold it); members read why not.
  const why = refusal(me, "submissions.import");
  if (why) {
    return (
      <>
        <PageHeader level={2} title="Import" />
        <p className="text-sm">{why} Importing another service's submissions is for the organization's owner and admins.</p>
      </>
    );
  }
  const shown = preview.data;
  const busy = preview.isPending || start.isPending;
  return (
    <>
      <PageHeader
        level={2}
        title="Import"
        description="Bring past submissions from another service's export (Formspree, Basin, Netlify) or a CSV or JSON file. Nothing is written until you press Import."
      />
      <div className="flex flex-col gap-6">
        <FilePicker
          disabled={busy}
          source={source}
          onFile={(file, fileName) => change({ file, fileName, source })}
          onSource={(next) => {
            setSource(next);
            // Another format reads other columns: the mapping and time column start again from its suggestions.
            if (request) change({ file: request.file, fileName: request.fileName, source: next });
          }}
        />
        {preview.isPending && <Muted role="status">Reading the file…</Muted>}
        <FormError message={apiError(preview.error)?.message ?? apiError(start.error)?.message} />
        {shown && request && (
          <section aria-labelledby="import-preview-heading" className={`${card} flex flex-col gap-4`}>
            <div>
              <h3 id="import-preview-heading" className="text-lg font-semibold">
                Preview of {request.fileName}
              </h3>
              <p role="status" className="text-sm">
                Detected: {describeFile(shown)}
              </p>
            </div>
            <MappingTable
              preview={shown}
              fields={fields}
              disabled={busy}
              onMap={(column, field) => change({ ...request, mapping: { ...request.mapping, [column]: field } })}
              onTimeColumn={(timeColumn) => change({ ...request, timeColumn })}
            />
            <SampleRows preview={shown} />
            <Problems problems={shown.problems} />
            <div>
              <Button disabled={busy || shown.rows === 0} onClick={() => start.mutate(request)}>
                Import {count(shown.rows, "row")}
              </Button>
            </div>
          </section>
        )}
        {shownJob && (
          <div ref={jobHeading} tabIndex={-1} className="outline-none">
            <ImportProgress formId={formId} importId={shownJob} />
          </div>
        )}
        <section aria-labelledby="past-imports-heading" className="flex flex-col gap-2">
          <h3 id="past-imports-heading" className="text-lg font-semibold">
            Past imports
          </h3>
          <PastImports formId={formId} />
        </section>
      </div>
    </>
  );
}
