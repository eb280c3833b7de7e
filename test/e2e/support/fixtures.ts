import { randomUUID } from "node:crypto";
import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";

/** An account made through the API for one test: its own organization, nothing shared. */
export interface Account {
  email: string;
  password: string;
  name: string;
  organizationName: string;
  /** A bearer session for arranging data through the API (the browser signs in by cookie). */
  token: string;
}

export const PASSWORD = "a-long-test-password";

export async function createAccount(request: APIRequestContext): Promise<Account> {
  const id = randomUUID().slice(0, 8);
  const account = { email: `e2e-${id}@example.com`, password: PASSWORD, name: `Tester ${id}`, organizationName: `Org ${id}` };
  const response = await request.post("/api/v1/auth/signup", { data: account });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { token: string } };
  return { ...account, token: data.token };
}

/** A call to the API as `account` (bearer), answering the envelope's `data`. */
export async function apiAs<T = Record<string, unknown>>(
  request: APIRequestContext,
  account: Account,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${account.token}` },
    ...(data === undefined ? {} : { data }),
  });
  const text = await response.text();
  expect(response.ok(), `${method} ${path}: ${response.status()} ${text}`).toBe(true);
  return (JSON.parse(text) as { data: T }).data;
}

/** A site with one generic source; answers what a sender needs. */
export async function createSource(request: APIRequestContext, account: Account, name = "Contact form") {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", {
    name: `Site of ${account.organizationName}`,
  });
  const source = await apiAs<{ id: string; webhookUrl: string; secretKey: string }>(
    request,
    account,
    "POST",
    `/api/v1/sites/${site.id}/webhooks`,
    { name },
  );
  return { siteId: site.id, webhookId: source.id, url: source.webhookUrl, secret: source.secretKey };
}

/**
 * Waits until the bookkeeper has counted `count` submissions on a source (docs/api.md: counts
 * follow the table stream and settle within seconds; a source's, its form's and the day's move in
 * one write), so a page loaded next shows them, as it would for a person a moment later.
 */
export async function counted(request: APIRequestContext, account: Account, siteId: string, webhookId: string, count: number) {
  await expect
    .poll(
      async () =>
        (await apiAs<{ submissionCount: number }>(request, account, "GET", `/api/v1/sites/${siteId}/webhooks/${webhookId}`))
          .submissionCount,
      { timeout: 10_000 },
    )
    .toBe(count);
}

/** Sends one submission as a website's script would; answers the intake's result. */
export async function submit(
  request: APIRequestContext,
  source: { url: string; secret: string },
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await request.post(source.url, { data: fields, headers: { "x-webhook-key": source.secret, ...headers } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { submissionId: string; referenceId: string };
}

/** Signs in through the page, as a person does. */
export async function signIn(page: Page, account: Pick<Account, "email" | "password">) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Attached rather than visible: on a phone the header folds it under "Menu".
  await expect(page.getByRole("button", { name: "Sign out", includeHidden: true })).toBeAttached();
}

/** `account`: a fresh organization; `signedIn`: a page signed in as it. */
export const test = base.extend<{ account: Account; signedIn: Page }>({
  account: async ({ request }, use) => {
    await use(await createAccount(request));
  },
  signedIn: async ({ page, account }, use) => {
    await signIn(page, account);
    await use(page);
  },
});

export { expect };
