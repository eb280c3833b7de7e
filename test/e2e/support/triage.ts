import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { type Account, apiAs, createSource } from "./fixtures";
import { getSubmission, send } from "./inbox";

/**
 * Helpers of the triage specs: a form with a few leads sent as a visitor's browser
 * would, tags and lead changes made through the API (as a colleague or an integration would),
 * and the inbox's live announcement.
 */

export interface Leads {
  formId: string;
  siteId: string;
  /** The leads' ids by name, in the order sent (the last is the newest). */
  ids: Record<string, string>;
}

/** A form with one lead per name (each with an email and a phone), sent oldest first. */
export async function leads(request: APIRequestContext, account: Account, names: string[]): Promise<Leads> {
  const source = await createSource(request, account);
  const ids: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const first = name.split(" ")[0]?.toLowerCase() ?? "lead";
    const sent = await send(request, source, {
      name,
      email: `${first}@example.com`,
      phone: `+1 650 555 01${String(10 + i)}`,
      message: `Hello from ${name}`,
    });
    ids[name] = sent.submissionId;
  }
  const one = await getSubmission(request, account, Object.values(ids)[0] ?? "");
  return { formId: one.formId, siteId: source.siteId, ids };
}

export const createTag = async (request: APIRequestContext, account: Account, name: string, colour = "blue") =>
  (await apiAs<{ tag: { id: string; name: string } }>(request, account, "POST", "/api/v1/tags", { name, colour })).tag;

export interface TriagedLead {
  id: string;
  status: string;
  ownerId: string | null;
  tags: string[];
  updatedAt: string;
  unread: boolean | null;
}

/** A change to one lead through the API (PATCH /submissions/{id}). */
export const patchLead = async (request: APIRequestContext, account: Account, id: string, change: Record<string, unknown>) =>
  (await apiAs<{ submission: TriagedLead }>(request, account, "PATCH", `/api/v1/submissions/${id}`, change)).submission;

export const leadOf = async (request: APIRequestContext, account: Account, id: string) =>
  (await apiAs<{ submission: TriagedLead }>(request, account, "GET", `/api/v1/submissions/${id}`)).submission;

/** The signed-in account's user id. */
export const userIdOf = async (request: APIRequestContext, account: Account) =>
  (await apiAs<{ user: { id: string } }>(request, account, "GET", "/api/v1/auth/me")).user.id;

/**
 * Waits until the form's counts per status say `expected` (the bookkeeper counts from the table
 * stream within seconds), so a page loaded next shows them.
 */
export async function statusCounts(
  request: APIRequestContext,
  account: Account,
  formId: string,
  expected: Record<string, number>,
) {
  await expect
    .poll(
      async () =>
        (
          await apiAs<{ form: { counts?: { statuses?: Record<string, number> } } }>(
            request,
            account,
            "GET",
            `/api/v1/forms/${formId}`,
          )
        ).form.counts?.statuses,
      { timeout: 15_000 },
    )
    .toMatchObject(expected);
}

/** The inbox's polite live region (what a key or a bulk action did). */
export const announcement = (page: Page) => page.locator("p[role=status][aria-live=polite]");

/** The row of the inbox's table holding `text`. */
export const rowOf = (page: Page, text: string) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("checkbox") })
    .filter({ hasText: text });

/** The width the document scrolls to, and the window's: equal when nothing scrolls sideways. */
export const widths = (page: Page) =>
  page.evaluate("({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth })") as Promise<{
    scroll: number;
    inner: number;
  }>;

/** Nothing on the page scrolls sideways (at a phone's width, the point of the phone project). */
export async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scroll, inner } = await widths(page);
  expect(scroll, `${where}: the page is ${scroll} px wide in a ${inner} px window`).toBeLessThanOrEqual(inner);
}
