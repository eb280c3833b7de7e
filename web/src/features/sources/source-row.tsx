import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { CloseButton, ConfirmButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { formatAgo, formatDateTime } from "../../lib/format";
import { count } from "../../lib/words";
import { KIND_LABELS, kindOf, type SiteForm, type Source } from "./queries";
import { useSourceActions } from "./source-actions";
import { SourceSetup } from "./source-setup";

/** What a permanent deletion takes along, in words: the URL, and the form with its submissions unless it stays. */
function DeletionScope({ source, form }: { source: Source; form: SiteForm | undefined }) {
  let formWords: string;
  if (!source.formId) formWords = "It has received nothing, so no form or submission goes with it.";
  else if (!form)
    formWords = "Its form goes with it, with all of its submissions, unless another source also sends to that form.";
  else if (form.origin === "builder") formWords = `The form “${form.name}” stays: you built it, and only the link to it goes.`;
  else if (form.webhookIds.length > 1) formWords = `The form “${form.name}” stays: another source also sends to it.`;
  else {
    formWords = `It also deletes the form “${form.name}” with its ${count((form.submissionCount ?? 0) + (form.spamCount ?? 0), "submission")} (spam included).`;
  }
  return (
    <>
      <p>
        This deletes the source <strong>{source.name}</strong> and its URL <code className="break-all">{source.webhookUrl}</code>{" "}
        for good: anything still sending there gets 404.
      </p>
      <p className="mt-2">{formWords}</p>
      <p className="mt-2">This cannot be undone.</p>
    </>
  );
}

/** A source's kind, state, submissions and last arrival, in one line of words. */
function Summary({ source }: { source: Source }) {
  const archived = source.archivedAt !== null;
  return (
    <Muted>
      {KIND_LABELS[kindOf(source)]} · {archived ? "Archived" : source.isEnabled ? "Enabled" : "Disabled"} ·{" "}
      {count(source.submissionCount, "submission")} ·{" "}
      {source.lastReceivedAt ? (
        <>
          last received{" "}
          <time dateTime={source.lastReceivedAt} title={formatDateTime(source.lastReceivedAt)}>
            {formatAgo(source.lastReceivedAt)}
          </time>
        </>
      ) : (
        "nothing received yet"
      )}
    </Muted>
  );
}

/** One source's row: its state and counts, and what can be done to it from that state. */
export function SourceRow({
  siteId,
  source,
  domain,
  form,
}: {
  siteId: string;
  source: Source;
  domain: string | null | undefined;
  form: SiteForm | undefined;
}) {
  const [shown, setShown] = useState<{ secret?: string; title: string }>();
  const act = useSourceActions(siteId, source, (secret) => setShown({ secret, title: `New secret for ${source.name}` }));
  const archived = source.archivedAt !== null;
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-medium">{source.name}</h3>
          <Summary source={source} />
          {source.formId && (
            <p className="text-sm">
              <Link to="/forms/$formId" params={{ formId: source.formId }} search={{}}>
                Inbox of {source.name}
              </Link>
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {!archived && (
            <>
              <Button variant="secondary" onClick={() => setShown({ title: `Set up ${source.name}` })}>
                Setup
              </Button>
              <Button variant="secondary" disabled={act.pending} onClick={() => act.setEnabled.mutate(!source.isEnabled)}>
                {source.isEnabled ? "Disable" : "Enable"}
              </Button>
              <ConfirmButton
                label="Rotate secret"
                title={`Rotate the secret of ${source.name}?`}
                description="The current secret stops working within seconds: every form, script or platform sending with it is refused until it has the new one."
                confirmLabel="Rotate secret"
                onConfirm={() => act.rotate.mutate()}
              />
              <ConfirmButton
                label="Archive"
                title={`Archive ${source.name}?`}
                description="It stops accepting submissions. Its submissions stay, and you can restore it later with the same URL."
                confirmLabel="Archive"
                onConfirm={() => act.archive.mutate()}
              />
            </>
          )}
          {archived && (
            <>
              <Button variant="secondary" disabled={act.pending} onClick={() => act.restore.mutate()}>
                Restore
              </Button>
              <ConfirmButton
                label="Delete permanently"
                variant="danger"
                title={`Permanently delete ${source.name}?`}
                description={<DeletionScope source={source} form={form} />}
                confirmLabel="Delete permanently"
                onConfirm={() => act.remove.mutate()}
              />
            </>
          )}
        </div>
      </div>
      <FormError className="mt-2" message={act.error} />
      <Modal open={shown !== undefined} onOpenChange={(open) => !open && setShown(undefined)} title={shown?.title ?? ""}>
        <SourceSetup
          url={source.webhookUrl}
          secret={shown?.secret}
          domain={domain}
          kind={kindOf(source)}
          movingIn={{ siteId, source }}
        />
        <CloseButton />
      </Modal>
    </li>
  );
}
