import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures";
import { sesEndpoint } from "./settings";

/** The password-reset links emailed to `email` so far, oldest first, as a person would open them. */
export async function resetLinks(request: APIRequestContext, email: string): Promise<string[]> {
  const response = await request.get(`${sesEndpoint()}/store`);
  const { emails } = (await response.json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
  return emails
    .filter((e) => e.destination.to.includes(email))
    .map((e) => /(https?:\/\/\S+\/reset-password#token=inlet_eml_[0-9A-Za-z]+)/.exec(e.body.text ?? "")?.[1])
    .filter((link): link is string => link !== undefined);
}

/** The newest reset link to `email`, once it has arrived. */
export async function newestResetLink(request: APIRequestContext, email: string, count = 1): Promise<string> {
  await expect.poll(async () => (await resetLinks(request, email)).length).toBeGreaterThanOrEqual(count);
  return (await resetLinks(request, email)).at(-1) as string;
}

/** Whether the bearer session `token` still works. */
export async function sessionWorks(request: APIRequestContext, token: string): Promise<boolean> {
  return (await request.get("/api/v1/auth/me", { headers: { authorization: `Bearer ${token}` } })).ok();
}

/** A new bearer session of the account, as another device's sign-in. */
export async function otherSession(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const response = await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}
