import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect } from "@playwright/test";
import { type Account, apiAs, PASSWORD } from "./fixtures";

/** What `GET /api/v1/sites/{id}` answers, as the bearer API client reads it. */
export interface SiteAnswer {
  site: {
    id: string;
    name: string;
    domain: string | null;
    referencePrefix: string;
    isActive: boolean;
    captcha: null | { provider: string; siteKey: string; minScore?: number; hasSecretKey: boolean };
  };
  contents: { webhooks: number; forms: number };
}

/** The site as the API answers it now, and the raw body (to check what it never contains). */
export async function readSite(request: APIRequestContext, account: Account, siteId: string) {
  const response = await request.get(`/api/v1/sites/${siteId}`, { headers: { authorization: `Bearer ${account.token}` } });
  const text = await response.text();
  expect(response.status(), text).toBe(200);
  return { ...(JSON.parse(text) as { data: SiteAnswer }).data, raw: text };
}

/** A member of `owner`'s organization (role `member`: no sites.edit, sites.delete or submissions.delete), signed up by invite. */
export async function memberOf(request: APIRequestContext, owner: Account) {
  const email = `e2e-member-${randomUUID().slice(0, 8)}@example.com`;
  const { inviteToken } = await apiAs<{ inviteToken: string }>(request, owner, "POST", "/api/v1/team/invites", {
    email,
    role: "member",
  });
  const response = await request.post("/api/v1/auth/signup", {
    data: { email, password: PASSWORD, name: "Member Mo", inviteToken },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { email, password: PASSWORD };
}

/** Archives and then permanently deletes a source, as its page does in two steps. */
export async function removeSource(request: APIRequestContext, account: Account, siteId: string, webhookId: string) {
  await apiAs(request, account, "DELETE", `/api/v1/sites/${siteId}/webhooks/${webhookId}`);
  await apiAs(request, account, "DELETE", `/api/v1/sites/${siteId}/webhooks/${webhookId}?permanent=true`);
}
