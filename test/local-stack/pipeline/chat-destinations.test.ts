import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import type { ChatKind } from "../../../lib/store/outbound-endpoints";
import { api } from "../../support/api";
import { CHAT_KINDS } from "../../support/chat-receiver";
import { eventually } from "../../support/eventually";
import { accepted, postIntake } from "../../support/intake";
import { receiverPath } from "../../support/outbound-receiver";
import { pipelineBarrier } from "./support/barrier";
import { chatReceiversOfFile } from "./support/chat-receivers";
import { hotLead, type LeadForm, leadForm } from "./support/lead-forms";

/**
 * Chat destinations end to end through the real local stack: intake → stream → queue → consumer
 * (lead, startDeliveries with the destination's filter) → an attempt from the queue → a local
 * stand-in for each platform (test/support/chat-receiver.ts), which checks every message against
 * what the platform accepts and answers as it would. The test stack retries on a "1,1,1,1"
 * schedule (test/support/global-setup.ts).
 */

jest.setTimeout(120_000);

const KINDS: ChatKind[] = [...CHAT_KINDS];
const receivers = chatReceiversOfFile();

type Target = LeadForm;

const formTarget = (label: string) => leadForm(label, { name: "Contact <!channel>" });

const base = (t: Target) => `/api/v1/forms/${t.formId}/outbound-webhooks`;

async function addDestination(t: Target, kind: ChatKind, path: string, chat?: Record<string, unknown>) {
  const res = await api("POST", base(t), {
    token: t.owner.token,
    body: { kind, url: receivers[kind].url(path), description: `${kind} channel`, ...(chat ? { chat } : {}) },
  });
  if (res.status !== 201) throw new Error(`destination creation failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; url: string; signingSecret: string | null; kind: string; chat: unknown };
}

const submit = async (t: Target, json: Record<string, unknown>) => accepted(await postIntake(t.webhook, { json }));

async function deliveryOf(t: Target, endpointId: string, submissionId: string | null, done: (d: any) => boolean) {
  return eventually(
    `the delivery of ${submissionId} to ${endpointId}`,
    async () => {
      const res = await api("GET", `${base(t)}/${endpointId}/deliveries`, { token: t.owner.token });
      const delivery = (res.body.data.deliveries as any[]).find((d) => d.submissionId === submissionId);
      return delivery && done(delivery) ? delivery : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

const settled = (d: any) => (d.status === "delivered" || d.status === "failed") && !d.inFlight;

describe("chat destinations, end to end", () => {
  test("each platform gets a valid message for a real submission; the URL is shown masked and no secret is made", async () => {
    const t = await formTarget("chat-e2e");
    const paths = Object.fromEntries(KINDS.map((kind) => [kind, receiverPath(kind)])) as Record<ChatKind, string>;
    const created = await Promise.all(KINDS.map((kind) => addDestination(t, kind, paths[kind])));
    for (const [i, kind] of KINDS.entries()) {
      const destination = created[i];
      expect(destination?.kind).toBe(kind);
      expect(destination?.signingSecret).toBeNull();
      expect(destination?.url).toBe(`http://127.0.0.1:${new URL(receivers[kind].url("/")).port}/…${paths[kind].slice(-4)}`);
      expect(destination?.chat).toEqual({ minGrade: null, includeFieldValues: true, maxFields: 10 });
    }
    const sent = await submit(t, hotLead());
    for (const [i, kind] of KINDS.entries()) {
      const [request] = await receivers[kind].waitFor(paths[kind], 1);
      expect(receivers[kind].problems(paths[kind])).toEqual([[]]);
      // Chat platforms check no signature: none is sent.
      expect(request?.headers["webhook-signature"]).toBeUndefined();
      expect(request?.body).toContain("Ada Lovelace");
      expect(request?.body).toContain(sent.referenceId);
      expect(request?.body).toContain(`/submissions/${sent.submissionId}`);
      const delivery = await deliveryOf(t, created[i]?.id as string, sent.submissionId, settled);
      expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, eventType: "submission.created" });
    }
    // The list shows the masked URL too, and the submission's deliveries name each destination.
    const list = (await api("GET", base(t), { token: t.owner.token })).body.data.outboundWebhooks as any[];
    expect(list.map((e) => e.url).every((url: string) => url.includes("/…"))).toBe(true);
    const ofSubmission = (await api("GET", `/api/v1/submissions/${sent.submissionId}/deliveries`, { token: t.owner.token })).body
      .data.deliveries as any[];
    expect(ofSubmission.map((d) => d.endpoint.kind).sort()).toEqual([...KINDS].sort());
  });

  test("hostile submissions: 200 fields, long values, pings and disguised links give valid messages that ping nobody", async () => {
    const t = await formTarget("chat-hostile");
    const paths = Object.fromEntries(KINDS.map((kind) => [kind, receiverPath(`${kind}-hostile`)])) as Record<ChatKind, string>;
    await Promise.all(KINDS.map((kind) => addDestination(t, kind, paths[kind], { maxFields: 25 })));
    const hostile =
      "<!channel> @everyone <@U024BE7LH> [bank.example](https://evil.example) <https://evil.example|bank> <at>Ada</at> <b>x</b> <users/all> **b**";
    const fields: Record<string, string> = {};
    // An intake body is at most 256 KB: 200 fields (the lead's 5 among them), four of 10 KB, the others 0.7 KB of
    // emoji and markup. (A builder test covers 200 values of 10 KB: test/standalone/unit/chat-messages.test.ts.)
    for (let i = 0; i < 191; i++) fields[`f${i}_${hostile.slice(0, 20)}`] = `${hostile} ${"😀x".repeat(120)}`;
    for (let i = 0; i < 4; i++) fields[`long${i}`] = `${hostile} ${"x<".repeat(4900)}`;
    const sent = await submit(t, { ...hotLead({ name: hostile }), ...fields });
    for (const kind of KINDS) {
      await receivers[kind].waitFor(paths[kind], 1);
      expect({ kind, problems: receivers[kind].problems(paths[kind]) }).toEqual({ kind, problems: [[]] });
      const body = receivers[kind].requests(paths[kind])[0]?.body ?? "";
      expect(body).toMatch(/more fields/);
    }
    expect(sent.submissionId).toMatch(/^sub_/);
  });

  test("filters: a minimum grade passes hot leads only; without field values, the message holds no name, email or value", async () => {
    const t = await formTarget("chat-filters");
    const hotPath = receiverPath("slack-hot");
    const barePath = receiverPath("discord-bare");
    const hotOnly = await addDestination(t, "slack", hotPath, { minGrade: "hot" });
    const bare = await addDestination(t, "discord", barePath, { includeFieldValues: false });
    const cold = await submit(t, { name: "Bo", email: `bo.${randomUUID()}@gmail.com` });
    const hot = await submit(t, hotLead());
    await deliveryOf(t, bare.id, hot.submissionId, settled);
    await deliveryOf(t, hotOnly.id, hot.submissionId, settled);
    await pipelineBarrier();
    const slackBodies = receivers.slack.requests(hotPath).map((r) => r.body);
    expect(slackBodies).toHaveLength(1);
    expect(slackBodies[0]).toContain(hot.referenceId);
    const discordBodies = receivers.discord.requests(barePath).map((r) => r.body);
    expect(discordBodies).toHaveLength(2);
    for (const body of discordBodies) {
      expect(body).not.toMatch(/Ada|Lovelace|analytical-engines|gmail|7946|order/);
      expect(body).toContain("/submissions/");
    }
    expect(discordBodies.join()).toContain(cold.referenceId);
  });

  test("a deleted webhook's answer disables the destination; a test message goes through the same log", async () => {
    const t = await formTarget("chat-gone");
    const path = receiverPath("slack-gone");
    const destination = await addDestination(t, "slack", path);
    const test = await api("POST", `${base(t)}/${destination.id}/test`, { token: t.owner.token });
    expect(test.status).toBe(202);
    const tested = await deliveryOf(t, destination.id, null, settled);
    expect(tested).toMatchObject({ status: "delivered", eventType: "webhook.test" });
    expect(receivers.slack.problems(path)).toEqual([[]]);
    expect(receivers.slack.requests(path)[0]?.body).toContain("Test message from Inlet");

    receivers.slack.script(path, [{ status: 404, body: "no_service" }]);
    const sent = await submit(t, hotLead());
    const failed = await deliveryOf(t, destination.id, sent.submissionId, settled);
    expect(failed).toMatchObject({ status: "failed", attemptCount: 1 });
    expect(failed.attempts[0].error).toBe("HTTP 404 (no_service): the webhook is gone, the destination was disabled");
    const list = (await api("GET", base(t), { token: t.owner.token })).body.data.outboundWebhooks as any[];
    expect(list[0]).toMatchObject({ isEnabled: false, disabledReason: expect.stringContaining("Slack answered 404") });
    // Disabled: the next lead is not sent to it.
    await submit(t, hotLead());
    await pipelineBarrier();
    expect(receivers.slack.requests(path)).toHaveLength(2);
  });

  test("a message the platform would refuse fails its attempt with the platform's answer", async () => {
    const t = await formTarget("chat-refused");
    const path = receiverPath("discord-refused");
    const destination = await addDestination(t, "discord", path);
    receivers.discord.script(path, [{ status: 400, body: '{"code": 50035, "message": "Invalid Form Body"}' }]);
    const sent = await submit(t, hotLead());
    const delivery = await deliveryOf(t, destination.id, sent.submissionId, (d) => d.status === "delivered");
    expect(delivery.attempts[0].error).toBe('HTTP 400 ({"code": 50035, "message": "Invalid Form Body"})');
    expect(delivery.attemptCount).toBe(2);
  });
});
