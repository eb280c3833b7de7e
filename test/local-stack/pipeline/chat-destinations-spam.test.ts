import { jest } from "@jest/globals";
import type { ChatKind } from "../../../lib/store/outbound-endpoints";
import { api } from "../../support/api";
import { CHAT_KINDS } from "../../support/chat-receiver";
import { eventually } from "../../support/eventually";
import { accepted, postIntake, storedSubmission } from "../../support/intake";
import { receiverPath } from "../../support/outbound-receiver";
import { pipelineBarrier } from "./support/barrier";
import { chatReceiversOfFile } from "./support/chat-receivers";
import { hotLead, leadForm } from "./support/lead-forms";

/**
 * Spam never reaches a chat channel (docs/notifications.md, "Filters": always, whatever the
 * destination's own filters), through the real local stack: a hot lead that intake judges spam
 * (its honeypot filled) beside a clean one, to a destination of every platform that takes every
 * grade. The clean one arriving, then a pipeline barrier, shows the pipeline ran past the spam.
 * A moderator's release is what lets it through: a released submission enters the pipeline.
 */

jest.setTimeout(120_000);

const KINDS: ChatKind[] = [...CHAT_KINDS];
const receivers = chatReceiversOfFile();

test("a spam submission is never posted to any destination, hot as it looks; once a moderator releases it, it is", async () => {
  const t = await leadForm("chat-spam");
  const paths = Object.fromEntries(KINDS.map((kind) => [kind, receiverPath(`${kind}-spam`)])) as Record<ChatKind, string>;
  const ids: Record<ChatKind, string> = {} as Record<ChatKind, string>;
  for (const kind of KINDS) {
    const res = await api("POST", `/api/v1/forms/${t.formId}/outbound-webhooks`, {
      token: t.owner.token,
      body: { kind, url: receivers[kind].url(paths[kind]), description: `${kind} channel`, chat: { minGrade: null } },
    });
    expect(res.status).toBe(201);
    ids[kind] = res.body.data.id;
  }

  // Spam first: a hot lead whose honeypot is filled (intake scores it 100). Then a clean lead.
  const spamLead = hotLead({ name: "Spammy McSpamface", _gotcha: "filled by a bot" });
  const spam = accepted(await postIntake(t.webhook, { json: spamLead }));
  const clean = accepted(await postIntake(t.webhook, { json: hotLead() }));
  expect((await storedSubmission(spam.submissionId))?.isSpam).toBe(true);

  for (const kind of KINDS) await receivers[kind].waitFor(paths[kind], 1);
  await pipelineBarrier();
  for (const kind of KINDS) {
    const requests = receivers[kind].requests(paths[kind]);
    expect({ kind, count: requests.length }).toEqual({ kind, count: 1 });
    expect(requests[0]?.body).toContain(clean.referenceId);
    expect(requests[0]?.body).not.toContain("Spammy");
    expect(requests[0]?.body).not.toContain(spam.referenceId);
    expect(receivers[kind].problems(paths[kind])).toEqual([[]]);
  }
  // Nothing was even queued for it: no delivery in any destination's log, none on the submission.
  const ofSpam = await api("GET", `/api/v1/submissions/${spam.submissionId}/deliveries`, { token: t.owner.token });
  expect(ofSpam.status).toBe(200);
  expect(ofSpam.body.data.deliveries).toEqual([]);
  for (const kind of KINDS) {
    const log = await api("GET", `/api/v1/forms/${t.formId}/outbound-webhooks/${ids[kind]}/deliveries`, { token: t.owner.token });
    const submissions = (log.body.data.deliveries as { submissionId: string | null }[]).map((d) => d.submissionId);
    expect({ kind, submissions }).toEqual({ kind, submissions: [clean.submissionId] });
  }

  // A moderator says it is not spam: it enters the pipeline as a lead, and every destination gets it.
  const released = await api("PUT", `/api/v1/submissions/${spam.submissionId}`, {
    token: t.owner.token,
    body: { isSpam: false },
  });
  expect(released.status).toBe(200);
  for (const kind of KINDS) {
    const [, second] = await receivers[kind].waitFor(paths[kind], 2);
    expect(second?.body).toContain(spam.referenceId);
  }
  await eventually("the released submission's deliveries", async () => {
    const res = await api("GET", `/api/v1/submissions/${spam.submissionId}/deliveries`, { token: t.owner.token });
    return (res.body.data.deliveries as unknown[]).length === KINDS.length;
  });
});
