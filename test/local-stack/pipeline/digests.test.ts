import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import type { Context } from "aws-lambda";
import { handler } from "../../../functions/digests/send-digests";
import { DIGESTS } from "../../../functions/routes";
import { guardTableGrants, localGrant, runAs } from "../../../infra/local/grants";
import { db } from "../../../lib/aws/dynamodb";
import { ses } from "../../../lib/aws/ses";
import { readAction } from "../../../lib/store/actions";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner, verifyAddress } from "../../support/api";
import { eventually } from "../../support/eventually";
import { type Receiver, receiverPath, startReceiver } from "../../support/outbound-receiver";
import { type Hook, storedItem, submitTo } from "../../support/submissions";
import { pipelineBarrier } from "./support/barrier";
import { emailsTo, HOT_LEAD, notifyingForm, rawItem, recipient } from "./support/emails";

/**
 * Digests end to end: real submissions through intake and the pipeline, the daily counts and the
 * failing list they leave, then the digest function itself (functions/digests/send-digests.ts),
 * called in this process with the schedule's event at a fixed time and held to its IAM grant as in
 * AWS (infra/local/grants.ts), sending through the stack's SES emulator. The schedule's own timer
 * is tested apart (test/standalone/unit/local-digest-schedule.test.ts).
 *
 * Each member's digest hour is the current UTC hour in UTC, so the next daily digest is due
 * tomorrow at that hour and covers today (UTC), when these submissions arrive.
 */

jest.setTimeout(120_000);

const PATH = "/api/v1/auth/me/notifications";
const DAY = 86_400_000;

const context = (): Context =>
  ({
    awsRequestId: randomUUID(),
    functionName: "inlet-digests-test",
    getRemainingTimeInMillis: () => DIGESTS.timeoutSeconds * 1000,
  }) as Context;

/** One run of the schedule at `time`, as the digest function under its grant. */
const runAt = (time: string) =>
  runAs(DIGESTS.handler, localGrant(DIGESTS), () => handler({ time }, context())) as Promise<{ statusCode: number }>;

const digestsTo = async (account: Account, kind: "Daily" | "Weekly") =>
  (await emailsTo(account.email)).filter((e) => e.subject.startsWith(`${kind} digest`));

const today = () => new Date().toISOString().slice(0, 10);
const isoWeekday = () => ((new Date().getUTCDay() + 6) % 7) + 1;

async function choose(account: Account, body: Record<string, unknown>) {
  const res = await api("PUT", PATH, {
    token: account.token,
    body: { timeZone: "UTC", digestHour: new Date().getUTCHours(), digestWeekday: isoWeekday(), forms: [], ...body },
  });
  expect(res.status).toBe(200);
  return res.body.data as { nextDigests: { daily: string | null; weekly: string | null } };
}

const memberOf = (account: Account) => rawItem(keys.member(account.orgId, account.userId));

async function verifiedOwner(label: string) {
  const owner = await signupOwner(label);
  await verifyAddress(owner.email, owner.token);
  return owner;
}

let receiver: Receiver;
let owner: Account;
let siteId: string;
let contact: { formId: string; hook: Hook };
let quote: { formId: string; hook: Hook };
let endpointId: string;
const outsider = recipient("outsider");
const sent: Record<"hot" | "cold" | "spam" | "quote", string> = { hot: "", cold: "", spam: "", quote: "" };
let daily: string;
let weekly: string;

beforeAll(async () => {
  guardTableGrants(db(), "enforce");
  // The CRM is down: every attempt to it fails.
  receiver = await startReceiver(() => ({ status: 500 }));
  owner = await verifiedOwner("digest");
  siteId = await createSite(owner, "Acme <site>");
  // The owner is on Contact's list, beside an address that is no member's.
  contact = await notifyingForm(owner, siteId, [outsider, owner.email], "Contact");
  quote = await notifyingForm(owner, siteId, [], "Quote");
  // Every form daily, Quote weekly; chosen before anything arrives.
  const chosen = await choose(owner, { organization: "daily", forms: [{ formId: quote.formId, choice: "weekly" }] });
  daily = chosen.nextDigests.daily as string;
  weekly = chosen.nextDigests.weekly as string;

  const path = receiverPath("digest-crm");
  const endpoint = await api("POST", `/api/v1/forms/${contact.formId}/outbound-webhooks`, {
    token: owner.token,
    body: { url: receiver.url(path), description: "CRM" },
  });
  expect(endpoint.status).toBe(201);
  endpointId = endpoint.body.data.id;

  sent.hot = (await submitTo(contact.hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` })).submissionId;
  sent.cold = (await submitTo(contact.hook, { name: "Bo", message: randomUUID() })).submissionId;
  sent.spam = (await submitTo(contact.hook, { name: "Spammy", message: randomUUID() })).submissionId;
  sent.quote = (await submitTo(quote.hook, { ...HOT_LEAD, name: "Grace Hopper", message: randomUUID() })).submissionId;
  await eventually("every lead qualified", async () => {
    const items = await Promise.all(Object.values(sent).map(storedItem));
    return items.every((item) => item?.lead);
  });
  // A moderator flags one as spam: the day's counts move from the inbox to spam.
  expect((await api("PUT", `/api/v1/submissions/${sent.spam}`, { token: owner.token, body: { isSpam: true } })).status).toBe(200);
  await eventually("the day's counts and the failing endpoint", async () => {
    const res = await api("GET", `/api/v1/sites/${siteId}/overview?days=1`, { token: owner.token });
    const { totals, failingDeliveries } = res.body.data;
    return totals.inbox === 3 && totals.spam === 1 && failingDeliveries.length === 1;
  });
  await pipelineBarrier();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(() => {
  jest.restoreAllMocks();
});

test("a member whose choice is a digest is taken off the form's per-submission email; an address that is no member's is not", async () => {
  expect((await emailsTo(outsider)).filter((e) => e.subject.startsWith("New submission to Contact"))).toHaveLength(3);
  expect((await emailsTo(owner.email)).filter((e) => e.subject.startsWith("New submission"))).toEqual([]);
});

test("the daily digest at the member's hour: counts, grades, the leads with links, what fails, the way to change it; once, however often the schedule fires", async () => {
  const [first, second] = await Promise.all([runAt(daily), runAt(daily)]);
  expect(first.statusCode + second.statusCode).toBe(1);
  expect((await runAt(daily)).statusCode).toBe(0);
  const emails = await digestsTo(owner, "Daily");
  expect(emails).toHaveLength(1);
  const email = emails[0]!;
  const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date());
  expect(email.subject).toBe(`Daily digest: 2 new submissions, 1 hot (${day})`);
  const text = email.body.text ?? "";
  const base = process.env.BASE_URL?.replace(/\/+$/, "");
  expect(text).toContain("New submissions: 2\nSpam caught: 1\nGrades: 1 hot, 0 warm, 1 cold");
  expect(text).toContain(`  Contact (Acme <site>): 2  ${base}/forms/${contact.formId}`);
  // Quote is in the weekly digest, not this one.
  expect(text).not.toContain("Quote");
  expect(text).toContain(`${base}/submissions/${sent.hot}`);
  expect(text).toContain(`${base}/submissions/${sent.cold}`);
  expect(text).not.toContain(sent.spam);
  expect(text).toMatch(
    /Hottest leads:\n {2}\S+ · Contact · hot 85 · Ada <b>Lovelace<\/b> · ada@analytical-engines\.example\.com · /,
  );
  expect(text).toContain(`webhook CRM (Contact): `);
  expect(text).toContain(`${base}/forms/${contact.formId}/webhooks/${endpointId}`);
  expect(text).toContain(`${base}/settings/account#notifications`);
  expect(email.body.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
  expect(email.body.html).toContain("Acme &lt;site&gt;");
  // Recorded as sent, as SES accepted it, under the run's table grant (its fate: email-fate.test.ts).
  expect(await rawItem(keys.sentEmail(email.messageId))).toMatchObject({
    kind: "digest",
    [`to:${owner.email.toLowerCase()}`]: { status: "sent" },
  });

  // Its claim is done; the next is due a day later, and today is covered.
  expect((await readAction(`digest_${owner.userId}_daily_${today()}`, "digest"))?.status).toBe("done");
  const member = await memberOf(owner);
  expect(member?.digests.daily).toEqual({ dueAt: new Date(Date.parse(daily) + DAY).toISOString(), coveredUntil: today() });
  expect(member?.gsi1sk).toBe(`${new Date(Date.parse(daily) + DAY).toISOString()}#${owner.orgId}#${owner.userId}`);
});

test("the weekly digest covers the forms chosen weekly, over the last seven UTC days", async () => {
  // The daily digest due meanwhile has no new submission, but the CRM still fails: it says so.
  expect((await runAt(weekly)).statusCode).toBe(2);
  const emails = await digestsTo(owner, "Weekly");
  expect(emails).toHaveLength(1);
  const text = emails[0]?.body.text ?? "";
  expect(text).toContain("New submissions: 1\n");
  expect(text).toContain(`  Quote (Acme <site>): 1`);
  expect(text).toContain("Grace Hopper");
  expect(text).not.toContain("  Contact (");
  const dailies = await digestsTo(owner, "Daily");
  expect(dailies).toHaveLength(2);
  const tomorrow = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(Date.now() + DAY),
  );
  expect(dailies[1]?.subject).toBe(`Daily digest: 1 failing endpoint (${tomorrow})`);
  expect(dailies[1]?.body.text).toContain("New submissions: 0\nSpam caught: 0\n");
  const member = await memberOf(owner);
  expect(member?.digests.weekly).toEqual({
    dueAt: new Date(Date.parse(weekly) + 7 * DAY).toISOString(),
    coveredUntil: new Date(Date.parse(weekly) - DAY).toISOString().slice(0, 10),
  });
});

test("a digest SES refuses: the run fails, its claim is released, the member stays due; the next run sends it once", async () => {
  const other = await verifiedOwner("digest-refused");
  const site = await createSite(other, "Refused");
  const form = await notifyingForm(other, site, [], "Leads");
  const { nextDigests } = await choose(other, { organization: "daily" });
  const id = (await submitTo(form.hook, { name: "Ada", message: randomUUID() })).submissionId;
  await eventually("the lead", async () => (await storedItem(id))?.lead);
  const due = nextDigests.daily as string;
  const before = await memberOf(other);

  const client = ses();
  const original = client.send.bind(client);
  jest.spyOn(client, "send").mockImplementation(async (command) => {
    if (command.input.Destination.ToAddresses.includes(other.email)) {
      throw Object.assign(new Error("Maximum sending rate exceeded."), { name: "TooManyRequestsException" });
    }
    return original(command);
  });
  await expect(runAt(due)).rejects.toThrow(/due digests failed/);
  expect(await digestsTo(other, "Daily")).toEqual([]);
  expect(await readAction(`digest_${other.userId}_daily_${today()}`, "digest")).toBeUndefined();
  expect((await memberOf(other))?.gsi1sk).toBe(before?.gsi1sk);

  jest.restoreAllMocks();
  expect((await runAt(due)).statusCode).toBe(1);
  expect((await runAt(due)).statusCode).toBe(0);
  expect(await digestsTo(other, "Daily")).toHaveLength(1);
});

test("nothing is emailed to an address its member has not proved, and an empty digest is not sent; both move on", async () => {
  const unproved = await signupOwner("digest-unproved");
  const site = await createSite(unproved, "Unproved");
  const form = await notifyingForm(unproved, site, [], "Leads");
  const first = await choose(unproved, { organization: "daily" });
  const id = (await submitTo(form.hook, { name: "Ada", message: randomUUID() })).submissionId;
  await eventually("the lead", async () => (await storedItem(id))?.lead);

  const quiet = await verifiedOwner("digest-quiet");
  await createSite(quiet, "Quiet");
  const second = await choose(quiet, { organization: "daily" });

  await runAt(second.nextDigests.daily as string);
  await runAt(first.nextDigests.daily as string);
  expect(await emailsTo(unproved.email)).toHaveLength(1); // the verification link, nothing else
  expect(await digestsTo(quiet, "Daily")).toEqual([]);
  for (const [account, due] of [
    [unproved, first.nextDigests.daily],
    [quiet, second.nextDigests.daily],
  ] as const) {
    expect((await memberOf(account))?.digests.daily).toEqual({
      dueAt: new Date(Date.parse(due as string) + DAY).toISOString(),
      coveredUntil: today(),
    });
  }
});

test("a member who chose an email per submission gets it for that form, listed or not; choosing off stops it", async () => {
  const invite = await api("POST", "/api/v1/team/invites", {
    token: owner.token,
    body: { email: recipient("digest-member"), role: "member" },
  });
  const email = invite.body.data.email as string;
  const signup = await api("POST", "/api/v1/auth/signup", {
    body: { email, password: "correct horse battery staple", name: "Member", inviteToken: invite.body.data.inviteToken },
  });
  expect(signup.status).toBe(201);
  const member: Account = { token: signup.body.data.token, email, userId: signup.body.data.user.id, orgId: owner.orgId };
  await verifyAddress(email, member.token);
  await choose(member, { organization: null, forms: [{ formId: quote.formId, choice: "instant" }] });

  const ref = await submitTo(quote.hook, { name: "Lin", message: randomUUID() });
  await eventually("the member's email", async () =>
    (await emailsTo(email)).find((e) => e.subject === `New submission to Quote (${ref.referenceId})`),
  );

  await choose(member, { organization: null, forms: [{ formId: quote.formId, choice: "off" }] });
  const later = await submitTo(quote.hook, { name: "Lin", message: randomUUID() });
  await eventually("the lead", async () => (await storedItem(later.submissionId))?.lead);
  await pipelineBarrier();
  expect((await emailsTo(email)).filter((e) => e.subject.startsWith("New submission"))).toHaveLength(1);
});
