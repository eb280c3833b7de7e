import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { TEST_ADMIN_EMAIL, TEST_PASSWORD } from "./constants";
import { checkAgainstDocument } from "./openapi";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export const baseUrl = () => {
  const url = process.env.INLET_URL;
  if (!url)
    throw new Error("INLET_URL is not set: the local stack was not started (tests that need it live in test/local-stack)");
  return url;
};

/**
 * One HTTP request to the local gateway; JSON bodies by default. Every answer under /api/ is
 * checked against the OpenAPI document (test/support/openapi.ts) unless `unchecked` says the
 * test sends what no client would (hostile fuzz input answered by API Gateway's own rules).
 */
export async function api<T = any>(
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string | Buffer;
    headers?: Record<string, string>;
    /** Send exactly these headers (node:http): fetch() forces its own `Sec-Fetch-Mode: cors`. */
    exactHeaders?: boolean;
    unchecked?: boolean;
    /** Another gateway on the same table (a second function instance); default: the test stack's. */
    base?: string;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const url = `${options.base ?? baseUrl()}${path}`;
  const res = options.exactHeaders
    ? await exactRequest(method, url, headers, body)
    : await fetch(url, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  if (!options.unchecked && path.startsWith("/api/")) {
    checkAgainstDocument({ method, path, status: res.status, contentType: res.headers.get("content-type"), text });
  }
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A request with exactly the given headers (node:http adds only Host, Connection and Content-Length). */
function exactRequest(method: string, url: string, headers: Record<string, string>, body: string | Buffer | undefined) {
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of [value ?? []].flat()) answer.append(name, one);
        }
        const status = res.statusCode ?? 0;
        const content = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(content, { status, headers: answer }));
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

export const uniqueEmail = (label = "user") => `${label}-${randomUUID()}@example.com`;

export interface Account {
  token: string;
  email: string;
  userId: string;
  orgId: string;
}

/** Signs up a new owner with a new organization. */
export async function signupOwner(label = "owner"): Promise<Account> {
  const email = uniqueEmail(label);
  const res = await api("POST", "/api/v1/auth/signup", {
    body: { email, password: TEST_PASSWORD, name: `Test ${label}`, organizationName: `Org ${label}` },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  return { token: res.body.data.token, email, userId: res.body.data.user.id, orgId: res.body.data.organization.id };
}

/**
 * The newest emailed link token (verification or reclaim) sent to `email`, read from the stack's
 * SES emulator (`GET /store`), waiting up to `timeoutMs` for `count` such emails to arrive.
 */
export async function emailedLinkToken(email: string, count = 1, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${process.env.INLET_SES_URL}/store`);
    const { emails } = (await res.json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
    const tokens = emails
      .filter((e) => e.destination.to.includes(email))
      .map((e) => /#token=(inlet_eml_[0-9A-Za-z]+)/.exec(e.body.text ?? "")?.[1])
      .filter((t): t is string => t !== undefined);
    if (tokens.length >= count) return tokens[tokens.length - 1] as string;
    if (Date.now() > deadline) throw new Error(`no emailed link to ${email} within ${timeoutMs} ms (${tokens.length} found)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Verifies `email` the way a person does: the link from the emulator's inbox, confirmed from a
 * session (`sessionToken`) of the account it was sent for.
 */
export async function verifyAddress(email: string, sessionToken: string): Promise<void> {
  const token = await emailedLinkToken(email);
  const res = await api("POST", "/api/v1/auth/verify-email", { token: sessionToken, body: { token } });
  if (res.status !== 200) throw new Error(`verification failed: ${res.status} ${res.text}`);
}

let adminToken: Promise<string> | undefined;

/** A session of the test stack's platform admin (created on first use, shared by a test file). */
export function platformAdminToken(): Promise<string> {
  adminToken ??= (async () => {
    const signup = await api("POST", "/api/v1/auth/signup", {
      body: { email: TEST_ADMIN_EMAIL, password: TEST_PASSWORD, name: "Platform Admin", organizationName: "Inlet Ops" },
    });
    if (signup.status === 201) {
      // Platform admin needs a verified address (docs/accounts.md).
      const token = signup.body.data.token as string;
      await verifyAddress(TEST_ADMIN_EMAIL, token);
      return token;
    }
    const login = await api("POST", "/api/v1/auth/login", { body: { email: TEST_ADMIN_EMAIL, password: TEST_PASSWORD } });
    if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${login.text}`);
    // Another test file's worker signed the admin up: wait until it has verified the address.
    const token = login.body.data.token as string;
    for (let i = 0; i < 100; i++) {
      if ((await api("GET", "/api/v1/auth/me", { token })).body.data?.platformAdmin === true) return token;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the platform admin's address was not verified within 10 s");
  })();
  return adminToken;
}

export async function setPlan(orgId: string, plan: "free" | "pro" | "agency" | "enterprise"): Promise<void> {
  const res = await api("PUT", `/api/v1/admin/organizations/${orgId}`, { token: await platformAdminToken(), body: { plan } });
  if (res.status !== 200) throw new Error(`plan change failed: ${res.status} ${res.text}`);
}

/** Invites `email` into the owner's organization and signs them up with `role`. */
export async function addMember(owner: Account, role: "admin" | "member", label: string = role): Promise<Account> {
  const email = uniqueEmail(label);
  const invite = await api("POST", "/api/v1/team/invites", { token: owner.token, body: { email, role } });
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  const res = await api("POST", "/api/v1/auth/signup", {
    body: { email, password: TEST_PASSWORD, name: `Test ${label}`, inviteToken: invite.body.data.inviteToken },
  });
  if (res.status !== 201) throw new Error(`invited signup failed: ${res.status} ${res.text}`);
  return { token: res.body.data.token, email, userId: res.body.data.user.id, orgId: res.body.data.organization.id };
}

export async function createSite(account: Account, name = "Test site"): Promise<string> {
  const res = await api("POST", "/api/v1/sites", { token: account.token, body: { name } });
  if (res.status !== 201) throw new Error(`site creation failed: ${res.status} ${res.text}`);
  return res.body.data.site.id as string;
}
