import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import type { Refusal } from "../../lib/access";
import { AddressField, RequestStatus, useAddressField } from "./parts";
import { eraseStep } from "./queries";
import { plural } from "./words";

interface Progress {
  email: string;
  state: "running" | "stopping" | "stopped" | "done" | "failed";
  requests: number;
  deleted: number;
  /** Where the erasure goes on from: kept when it stopped or failed, so it can continue. */
  cursor?: string | undefined;
  error?: string | undefined;
}

/** What the progress line says, in words: screen readers hear it as it changes. */
function describe(p: Progress): string {
  const sofar = `${plural(p.deleted, "submission")} deleted in ${plural(p.requests, "request")}`;
  switch (p.state) {
    case "running":
      return `Erasing submissions of ${p.email}… ${sofar} so far.`;
    case "stopping":
      return `Stopping after the current request… ${sofar} so far.`;
    case "stopped":
      return `Stopped: ${sofar}. Submissions not reached yet are still stored.`;
    case "failed":
      return `Interrupted: ${sofar}.`;
    case "done":
      return `Done: ${plural(p.deleted, "submission")} of ${p.email} erased (${plural(p.requests, "request")}).`;
  }
}

/**
 * Erasure by email across the organization (GDPR art. 17, `POST /api/v1/organization/erasures`):
 * one request works for a bounded time and answers a `cursor` while it is not `complete`; the
 * page sends the next one with it, showing the count as it goes, and can stop between requests.
 */
export function Erasure({ refusal }: { refusal: Refusal }) {
  const allowed = refusal === undefined;
  const queryClient = useQueryClient();
  const field = useAddressField();
  const [progress, setProgress] = useState<Progress>();
  const stop = useRef(false);
  const busy = progress?.state === "running" || progress?.state === "stopping";

  async function run(start: Progress) {
    stop.current = false;
    let p: Progress = { ...start, state: "running", error: undefined };
    setProgress(p);
    try {
      for (;;) {
        const answer = await eraseStep({ email: p.email, ...(p.cursor ? { cursor: p.cursor } : {}) });
        p = { ...p, requests: p.requests + 1, deleted: p.deleted + answer.deleted, cursor: answer.cursor ?? undefined };
        if (answer.complete) {
          p = { ...p, state: "done", cursor: undefined };
          break;
        }
        if (stop.current) {
          p = { ...p, state: "stopped" };
          break;
        }
        setProgress(p);
      }
    } catch (error) {
      if (field.refuses(error)) {
        setProgress(undefined);
        return;
      }
      p = { ...p, state: "failed", error: error instanceof ApiError ? error.message : "The erasure was interrupted." };
    } finally {
      // Lists and counts of the sites' forms and inboxes changed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.sites.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.forms.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.submissions.all }),
      ]);
    }
    setProgress(p);
  }

  const address = field.value.trim();
  const resumable = progress && (progress.state === "stopped" || progress.state === "failed") && progress.cursor;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Deletes every submission of the organization, in every site and form (archived ones and spam included), in which a field
        equals this address (case and surrounding spaces ignored). A field that merely contains it is kept. This cannot be undone.
      </p>
      <AddressField label="Email address to erase" field={field} disabled={!allowed || busy} />
      <div className="flex flex-wrap items-center gap-3">
        <ConfirmButton
          label="Erase submissions"
          variant="danger"
          disabled={!allowed || busy || address === ""}
          title={`Erase every submission of ${address}?`}
          description={
            <>
              <p>
                Every submission of the organization in which a field is <strong>{address}</strong> is deleted for good, in every
                site and form, spam included. Large organizations take several requests; you can stop between them.
              </p>
              <p className="mt-2">This cannot be undone.</p>
            </>
          }
          confirmLabel="Erase"
          onConfirm={() => {
            field.setError(undefined);
            void run({ email: address, state: "running", requests: 0, deleted: 0 });
          }}
        />
        {busy && (
          <Button
            variant="secondary"
            disabled={progress?.state === "stopping"}
            onClick={() => {
              stop.current = true;
              setProgress((p) => (p ? { ...p, state: "stopping" } : p));
            }}
          >
            Stop
          </Button>
        )}
        {resumable && !busy && (
          <Button variant="secondary" disabled={!allowed} onClick={() => void run(progress)}>
            Continue erasing
          </Button>
        )}
      </div>
      {progress && <RequestStatus busy={busy} busyLabel="Erasure in progress" text={describe(progress)} error={progress.error} />}
    </div>
  );
}
