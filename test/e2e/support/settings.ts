import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { type LocalStackInfo, stackFile } from "../../../infra/local/stack-file";
import { TEST_ADMIN_EMAIL } from "../../support/constants";
import { type Account, apiAs, expect, PASSWORD } from "./fixtures";

type Plan = "free" | "pro" | "agency" | "enterprise";

/** The SES emulator of the stack Playwright started (its description in the data folder). */
export function sesEndpoint(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: playwright.config.ts sets it");
  return (JSON.parse(readFileSync(stackFile(dir), "utf8")) as LocalStackInfo).sesEndpoint;
}

/** The email-link tokens sent to `email` so far (verification links), oldest first. */
export async function emailedLinkTokens(request: APIRequestContext, email: string): Promise<string[]> {
  const response = await request.get(`${sesEndpoint()}/store`);
  const { emails } = (await response.json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
  return emails
    .filter((e) => e.destination.to.includes(email))
    .map((e) => /#token=(inlet_eml_[0-9A-Za-z]+)/.exec(e.body.text ?? "")?.[1])
    .filter((t): t is string => t !== undefined);
}

/** Verifies `account`'s address as a person does: the emailed link's token, confirmed from the account's session. */
export async function verifyAddress(request: APIRequestContext, account: Pick<Account, "email" | "token">) {
  let token: string | undefined;
  await expect.poll(async () => (token = (await emailedLinkTokens(request, account.email)).at(-1))).toBeDefined();
  const response = await request.post("/api/v1/auth/verify-email", {
    headers: { authorization: `Bearer ${account.token}` },
    data: { token },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function me(request: APIRequestContext, account: Account) {
  return apiAs<{ organization: { id: string; name: string; plan: string }; user: { id: string }; platformAdmin: boolean }>(
    request,
    account,
    "GET",
    "/api/v1/auth/me",
  );
}

/**
 * The platform admin of the test stack: TEST_ADMIN_EMAIL, listed in PLATFORM_ADMIN_EMAILS by
 * playwright.config.ts, signed up and verified by whichever test needs it first (a parallel
 * worker that finds the address taken signs in and waits for the verification to land).
 */
export async function platformAdmin(request: APIRequestContext): Promise<Account> {
  const account = { email: TEST_ADMIN_EMAIL, password: PASSWORD, name: "Platform Admin", organizationName: "Inlet Ops" };
  const signup = await request.post("/api/v1/auth/signup", { data: account });
  if (signup.status() === 201) {
    const admin = { ...account, token: ((await signup.json()) as { data: { token: string } }).data.token };
    await verifyAddress(request, admin);
    return admin;
  }
  expect(signup.status(), await signup.text()).toBe(409);
  const login = await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } });
  expect(login.status(), await login.text()).toBe(200);
  const admin = { ...account, token: ((await login.json()) as { data: { token: string } }).data.token };
  await expect.poll(async () => (await me(request, admin)).platformAdmin).toBe(true);
  return admin;
}

/** Puts `account`'s organization on `plan`, as the platform admin. */
export async function setPlan(request: APIRequestContext, account: Account, plan: Plan) {
  const { organization } = await me(request, account);
  await apiAs(request, await platformAdmin(request), "PUT", `/api/v1/admin/organizations/${organization.id}`, { plan });
}

/** Invites someone into `owner`'s organization with `role` and signs them up; answers their account. */
export async function addMember(request: APIRequestContext, owner: Account, role: "admin" | "member", name: string) {
  const email = `e2e-${role}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const invite = await apiAs<{ inviteToken: string }>(request, owner, "POST", "/api/v1/team/invites", { email, role });
  const response = await request.post("/api/v1/auth/signup", {
    data: { email, password: PASSWORD, name, inviteToken: invite.inviteToken },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { token: string; user: { id: string } } };
  return { email, password: PASSWORD, name, organizationName: owner.organizationName, token: data.token, userId: data.user.id };
}

/** Creates an API key through the API (as `account`, an owner or admin on Agency or Enterprise). */
export async function createKey(request: APIRequestContext, account: Account, name: string) {
  const { key } = await apiAs<{ key: { id: string; secretKey: string } }>(request, account, "POST", "/api/v1/api-keys", { name });
  return key;
}
