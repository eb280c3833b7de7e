import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { eventually } from "../../support/eventually";
import { createHook, formOfHook, type Hook, submitTo } from "../../support/submissions";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * A site's overview over HTTP (docs/api.md, "Site overview"): the daily counts the bookkeeper
 * (from the table stream) and moderation keep (docs/data-model.md, "Daily counts"), read back through the route.
 */

const overview = (siteId: string, query = "") => `/api/v1/sites/${siteId}/overview${query}`;
const today = () => new Date().toISOString().slice(0, 10);

let owner: Account;
let siteId: string;
let contact: Hook;
let quote: Hook;
let contactForm: string;
let quoteForm: string;
const contactIds: string[] = [];

async function read(query = "", account: Account = owner) {
  const res = await api("GET", overview(siteId, query), { token: account.token });
  expect(res.status).toBe(200);
  return res.body.data;
}

const todayOf = (data: { days: { date: string; inbox: number; spam: number }[] }) => data.days.at(-1);

beforeAll(async () => {
  owner = await signupOwner("overview");
  siteId = await createSite(owner, "Overview site");
  contact = await createHook(owner, siteId, { name: "Contact page" });
  quote = await createHook(owner, siteId, { name: "Quote page" });
  for (let i = 0; i < 3; i++)
    contactIds.push((await submitTo(contact, { email: `c${i}@example.com`, note: `n${i}` })).submissionId);
  await submitTo(quote, { email: "q@example.com" });
  // The honeypot scores 100: stored as spam, answered like any success.
  await submitTo(contact, { email: "bot@example.com", _gotcha: "I am a bot" });
  contactForm = await formOfHook(owner, siteId, contact);
  quoteForm = await formOfHook(owner, siteId, quote);
  // The days are kept by the bookkeeper from the table stream: they settle after the answers.
  await eventually("the day counts settled", async () => {
    const { totals } = await read();
    return totals.inbox === 4 && totals.spam === 1;
  });
  await bookkeepingBarrier();
});

describe("GET /api/v1/sites/{id}/overview", () => {
  test("counts what intake stored: per day, inbox apart from spam, busiest sources and forms", async () => {
    const data = await read();
    expect(data.site).toEqual({ id: siteId, name: "Overview site" });
    expect(data.to).toBe(today());
    expect(data.days).toHaveLength(30);
    expect(data.days[0].date).toBe(data.from);
    // Zeros filled for the days without submissions, oldest first.
    expect(data.days.slice(0, 29).every((d: { inbox: number; spam: number }) => d.inbox === 0 && d.spam === 0)).toBe(true);
    expect(todayOf(data)).toEqual({ date: today(), inbox: 4, spam: 1 });
    expect(data.totals).toEqual({ inbox: 4, spam: 1, spamShare: 0.2 });
    // Sources and forms count the inbox: the spam submission is not the contact page's traffic.
    expect(data.topSources).toEqual([
      { webhookId: contact.id, name: "Contact page", count: 3 },
      { webhookId: quote.id, name: "Quote page", count: 1 },
    ]);
    expect(data.topForms).toEqual([
      { formId: contactForm, name: expect.any(String), count: 3 },
      { formId: quoteForm, name: expect.any(String), count: 1 },
    ]);
    expect(data.failingDeliveries).toEqual([]);
  });

  test("moderation moves a count between inbox and spam, both ways, once", async () => {
    const id = contactIds[0] as string;
    const flag = (isSpam: boolean) => api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam } });
    expect((await flag(true)).status).toBe(200);
    let data = await read();
    expect(todayOf(data)).toEqual({ date: today(), inbox: 3, spam: 2 });
    expect(data.topSources[0]).toEqual({ webhookId: contact.id, name: "Contact page", count: 2 });
    expect(data.topForms[0]).toEqual({ formId: contactForm, name: expect.any(String), count: 2 });

    // Flagging what is spam already changes nothing.
    expect((await flag(true)).status).toBe(200);
    expect(todayOf(await read())).toEqual({ date: today(), inbox: 3, spam: 2 });

    expect((await flag(false)).status).toBe(200);
    data = await read();
    expect(todayOf(data)).toEqual({ date: today(), inbox: 4, spam: 1 });
    expect(data.topSources[0]).toEqual({ webhookId: contact.id, name: "Contact page", count: 3 });
  });

  test("concurrent moderations to the same state move the count once", async () => {
    const id = contactIds[1] as string;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam: true } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(todayOf(await read())).toEqual({ date: today(), inbox: 3, spam: 2 });
    await api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam: false } });
    expect(todayOf(await read())).toEqual({ date: today(), inbox: 4, spam: 1 });
  });

  test("counts are what was received: deleting a submission does not lower them", async () => {
    const extra = await submitTo(quote, { email: "gone@example.com" });
    await eventually("the new submission counted", async () => todayOf(await read())?.inbox === 5);
    expect((await api("DELETE", `/api/v1/submissions/${extra.submissionId}`, { token: owner.token })).status).toBe(200);
    // Once the deletion's REMOVE record is bookkept (everything before the barrier is), the day still holds it.
    await bookkeepingBarrier();
    expect(todayOf(await read())).toEqual({ date: today(), inbox: 5, spam: 1 });
  });

  test("a window ending in the past, and its length", async () => {
    const data = await read("?to=2026-01-10&days=7");
    expect(data.from).toBe("2026-01-04");
    expect(data.to).toBe("2026-01-10");
    expect(data.days.map((d: { date: string }) => d.date)).toEqual([
      "2026-01-04",
      "2026-01-05",
      "2026-01-06",
      "2026-01-07",
      "2026-01-08",
      "2026-01-09",
      "2026-01-10",
    ]);
    expect(data.totals).toEqual({ inbox: 0, spam: 0, spamShare: 0 });
    expect(data.topSources).toEqual([]);
  });

  test("a member (submissions.view) reads it; a new site reads all zeros", async () => {
    const member = await addMember(owner, "member", "overview-member");
    expect(todayOf(await read("", member))?.inbox).toBeGreaterThan(0);
    const empty = await createSite(owner, "Empty");
    const res = await api("GET", overview(empty), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toEqual({ inbox: 0, spam: 0, spamShare: 0 });
    expect(res.body.data.days).toHaveLength(30);
  });

  test("another organization's site and an unknown site are 404", async () => {
    const stranger = await signupOwner("overview-stranger");
    const foreign = await api("GET", overview(siteId), { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("NOT_FOUND");
    expect(foreign.text).not.toContain("Contact page");
    const unknown = await api("GET", overview("site_doesnotexist0000000000"), { token: owner.token });
    expect(unknown.status).toBe(404);
  });

  test.each([
    ["?days=0"],
    ["?days=91"],
    ["?days=abc"],
    ["?days=1.5"],
    ["?to=2026-13-01"],
    ["?to=yesterday"],
    ["?to=2026-01-10T00:00:00Z"],
  ])("%s is 400 VALIDATION_ERROR", async (query) => {
    const res = await api("GET", overview(siteId, query), { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("without credentials it is 401", async () => {
    const res = await api("GET", overview(siteId));
    expect(res.status).toBe(401);
  });
});
