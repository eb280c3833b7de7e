import { performance } from "node:perf_hooks";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { DIGESTS } from "../../functions/routes";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { captured, cpuSince, type RuntimeSample, type RuntimeStats, stats } from "./cost";

/**
 * A digest (docs/notifications.md, "Digests"): the digest function's work for one member's daily
 * digest, on an organization of one site and one form whose day brought `SUBMISSIONS` submissions
 * (15 leads graded, 5 spam) and one failing endpoint. Each run is a scheduled run at the member's due time
 * with one member due (a fresh member each time: a period is sent once), the usual case of an
 * hour; with many members due in the same run, the run's fixed part (the due index's Query) is
 * shared. The figures grow with the organization's sites and forms (one Query per site and per
 * busy form: docs/data-model.md), not with its submissions.
 */
export const SUBMISSIONS = 20;

export interface DigestResult {
  run: RuntimeStats;
  work: RecordingSummary;
  /** Digests the SES emulator received: every run sent one. */
  sent: number;
  submissions: number;
}

const HOT = { score: 85, grade: "hot", reasons: ["business email domain (example.com)"] };
const COLD = { score: 5, grade: "cold", reasons: ["name given"] };

export async function measureDigest(options: { runs: number; recorderFactory: () => Recorder }): Promise<DigestResult> {
  const { api, addMember, createSite, signupOwner, verifyAddress } = await import("../support/api");
  const { makeSubmission } = await import("../support/submissions");
  const { storedRecord, streamEvent } = await import("../support/bookkeeping");
  const { submissionItem } = await import("../../lib/store/submissions");
  const { db, tableName } = await import("../../lib/aws/dynamodb");
  const { handler: keepBooks } = await import("../../functions/bookkeeping/keep-books");
  const { handler } = await import("../../functions/digests/send-digests");

  const owner = await signupOwner("digest-bench");
  const siteId = await createSite(owner, "Bench site");
  const created = await api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name: "Contact" } });
  if (created.status !== 201) throw new Error(`form creation failed: ${created.status} ${created.text}`);
  const form = { id: created.body.data.form.id as string, orgId: owner.orgId, siteId };
  const endpoint = await api("POST", `/api/v1/forms/${form.id}/outbound-webhooks`, {
    token: owner.token,
    body: { url: "http://127.0.0.1:9/bench", description: "CRM" },
  });
  if (endpoint.status !== 201) throw new Error(`endpoint creation failed: ${endpoint.status} ${endpoint.text}`);
  // Its deliveries fail, as the delivery machinery records it: the digest lists it.
  const { markEndpointFailing } = await import("../../lib/store/failing-endpoints");
  const failedAt = new Date().toISOString();
  await markEndpointFailing(
    { formId: form.id, id: endpoint.body.data.id as string, siteId },
    { deliveryId: "dlv_bench", status: "retrying", statusCode: 500, error: "HTTP 500", failedAt, nextAttemptAt: failedAt },
  );

  // Today's submissions, as intake and the consumer leave them (leads graded), and the day's counts
  // as the bookkeeper keeps them from their stream records.
  const submissions = Array.from({ length: SUBMISSIONS }, (_, i) =>
    makeSubmission(form, {
      data: { name: `Lead ${i}`, email: `lead${i}@example.com`, message: "Please call me back about a quote." },
      spam: { score: i < 5 ? 90 : 5, isSpam: i < 5, signals: [] },
    }),
  );
  const items = submissions.map((s, i) => ({ ...submissionItem(s), ...(i >= 5 ? { lead: i % 3 === 0 ? HOT : COLD } : {}) }));
  for (let i = 0; i < items.length; i += 25) {
    await db().send(
      new BatchWriteCommand({
        RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
  await keepBooks(streamEvent(submissions.map(storedRecord)), { awsRequestId: "bench", functionName: "inlet-bookkeeper" });

  /** A new member due now-ish: their daily digest at the current UTC hour tomorrow, covering today. */
  const dueMember = async (i: number) => {
    const member = await addMember(owner, "member", `digest-bench-${i}`);
    await verifyAddress(member.email, member.token);
    const saved = await api("PUT", "/api/v1/auth/me/notifications", {
      token: member.token,
      body: { timeZone: "UTC", digestHour: new Date().getUTCHours(), digestWeekday: 1, organization: "daily", forms: [] },
    });
    if (saved.status !== 200) throw new Error(`notifications not saved: ${saved.status} ${saved.text}`);
    return saved.body.data.nextDigests.daily as string;
  };
  const context = (): Context =>
    ({
      awsRequestId: "bench",
      functionName: "inlet-digests",
      getRemainingTimeInMillis: () => DIGESTS.timeoutSeconds * 1000,
    }) as Context;
  const runOnce = async (time: string) => {
    const run = await captured(() => handler({ time }, context()));
    if ((run.value as { statusCode: number }).statusCode !== 1) throw new Error(`a run sent ${JSON.stringify(run.value)}`);
    return run;
  };

  // One warm-up, as a warm Lambda instance would have had.
  await runOnce(await dueMember(0));
  const samples: RuntimeSample[] = [];
  let sampleLog = "";
  for (let i = 1; i <= options.runs; i++) {
    const due = await dueMember(i);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await runOnce(due);
    samples.push({ durationMs: performance.now() - started, cpuMs: cpuSince(cpu), logBytes: run.bytes, logLines: run.lines });
    sampleLog ||= run.text;
  }
  const recorder = options.recorderFactory();
  let work: RecordingSummary;
  try {
    const due = await dueMember(options.runs + 1);
    work = (await recorder.run(() => runOnce(due))).summary;
  } finally {
    recorder.uninstall();
  }
  const store = (await (await fetch(`${process.env.INLET_SES_URL}/store`)).json()) as { emails: { subject: string }[] };
  const sent = store.emails.filter((e) => e.subject.startsWith("Daily digest")).length;
  if (sent !== options.runs + 2) throw new Error(`expected ${options.runs + 2} digests, the SES emulator got ${sent}`);
  return { run: stats(samples, sampleLog.slice(0, 2000) || undefined), work, sent, submissions: SUBMISSIONS };
}
