import { useEffect, useState } from "react";
import { ApiError } from "../../api/client";
import { Button, buttonClass } from "../../components/ui/button";
import { submitWith } from "../../components/ui/field";
import type { Refusal } from "../../lib/access";
import { AddressField, RequestStatus, useAddressField } from "./parts";
import { type AccessedSubmission, accessStep } from "./queries";
import { plural } from "./words";

interface Progress {
  email: string;
  /** When the request was started (ISO): the file says it. */
  requestedAt: string;
  state: "running" | "done" | "failed";
  requests: number;
  found: AccessedSubmission[];
  /** Where the request goes on from after a failure. */
  cursor?: string | undefined;
  error?: string | undefined;
}

/** What the file holds (docs/privacy.md, "Erasure and access requests"). */
function fileOf(p: Progress, organization: { id: string; name: string }) {
  const content = {
    email: p.email,
    requestedAt: p.requestedAt,
    organization,
    count: p.found.length,
    submissions: p.found,
  };
  return {
    name: `inlet-access-request-${p.requestedAt.slice(0, 10)}.json`,
    url: URL.createObjectURL(new Blob([JSON.stringify(content, null, 2)], { type: "application/json" })),
  };
}

function describe(p: Progress): string {
  const sofar = `${plural(p.found.length, "submission")} found in ${plural(p.requests, "request")}`;
  if (p.state === "running") return `Looking for submissions of ${p.email}… ${sofar} so far.`;
  if (p.state === "failed") return `Interrupted: ${sofar}.`;
  return `Done: ${plural(p.found.length, "submission")} of ${p.email} found across the organization (${plural(p.requests, "request")}).`;
}

/**
 * An access request (GDPR art. 15, `POST /api/v1/organization/access-requests`): one request
 * reads for a bounded time and answers a `nextCursor` while there is more; the page follows it,
 * counting as it goes, and offers the whole answer as a JSON file once it is complete.
 */
export function AccessRequest({ refusal, organization }: { refusal: Refusal; organization: { id: string; name: string } }) {
  const allowed = refusal === undefined;
  const field = useAddressField();
  const [progress, setProgress] = useState<Progress>();
  const [file, setFile] = useState<{ name: string; url: string }>();
  const busy = progress?.state === "running";

  // The file's object URL lives as long as it is offered.
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);

  async function run(start: Progress) {
    let p: Progress = { ...start, state: "running", error: undefined };
    setProgress(p);
    setFile(undefined);
    try {
      for (;;) {
        const answer = await accessStep({ email: p.email, ...(p.cursor ? { cursor: p.cursor } : {}) });
        p = {
          ...p,
          requests: p.requests + 1,
          found: [...p.found, ...answer.submissions],
          cursor: answer.nextCursor ?? undefined,
        };
        if (!answer.nextCursor) break;
        setProgress(p);
      }
      p = { ...p, state: "done" };
      setFile(fileOf(p, organization));
    } catch (error) {
      if (field.refuses(error)) {
        setProgress(undefined);
        return;
      }
      p = { ...p, state: "failed", error: error instanceof ApiError ? error.message : "The request was interrupted." };
    }
    setProgress(p);
  }

  const address = field.value.trim();
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={submitWith(() => {
        field.setError(undefined);
        void run({ email: address, requestedAt: new Date().toISOString(), state: "running", requests: 0, found: [] });
      })}
    >
      <p className="text-sm">
        Finds every submission of the organization, in every site and form (archived ones and spam included), in which a field
        equals this address, and gives them to you as one JSON file to hand to the person. Nothing is changed; the request is
        recorded in the organization's audit log.
      </p>
      <AddressField label="Email address to look for" field={field} disabled={!allowed || busy} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!allowed || busy || address === ""}>
          Export data
        </Button>
        {progress?.state === "failed" && progress.cursor && (
          <Button variant="secondary" onClick={() => void run(progress)}>
            Continue
          </Button>
        )}
        {file && (
          <a href={file.url} download={file.name} className={buttonClass("secondary")}>
            Download {file.name}
          </a>
        )}
      </div>
      {progress && (
        <RequestStatus busy={busy} busyLabel="Access request in progress" text={describe(progress)} error={progress.error} />
      )}
    </form>
  );
}
