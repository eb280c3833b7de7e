import { createAccount, expect, PASSWORD, signIn, test } from "./support/fixtures";

test("sign-up creates the organization and lands on the guided start", async ({ page }) => {
  const id = Date.now().toString(36);
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace-${id}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Organization name").fill(`Navy ${id}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Inlet" })).toBeVisible();
  await expect(page.getByText(`Grace Hopper · Navy ${id}`)).toBeVisible();
});

test("a refused sign-up shows each problem beside its field, not raw JSON", async ({ page, account }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Someone");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Organization name").fill("Org");
  await page.getByRole("button", { name: "Create account" }).click();
  const email = page.getByLabel("Email");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("body")).not.toContainText('"success"');

  await email.fill(account.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toContainText("already exists");
});

test("wrong password: a readable message, and the person stays on sign-in", async ({ page, account }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("wrong-password-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("That email and password do not match an account.");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("the session cookie is HttpOnly: page scripts never see it, nor any token in storage", async ({
  signedIn: page,
  context,
}) => {
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "__Host-inlet_session");
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
  const visible = await page.evaluate("[document.cookie, JSON.stringify(localStorage), JSON.stringify(sessionStorage)]");
  expect(visible).toEqual(["", "{}", "{}"]);
  expect(JSON.stringify(visible)).not.toContain(session?.value ?? "missing");
});

test("signing out ends the session on the server and clears the cookie", async ({ signedIn: page, context, request }) => {
  const before = (await context.cookies()).find((c) => c.name === "__Host-inlet_session");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "__Host-inlet_session")).toBeUndefined();
  // The old cookie's token is refused by the API from now on.
  const replay = await request.get("/api/v1/auth/me", { headers: { authorization: `Bearer ${before?.value}` } });
  expect(replay.status()).toBe(401);
});

test("a page opened without a session goes to sign-in, then back to where the person was", async ({ page, account }) => {
  await page.goto("/sites/site_doesnotmatter?archived=true");
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sites\/site_doesnotmatter\?archived=true$/);
});

test("an expired session returns to sign-in and then back to the same page", async ({ signedIn: page, context, account }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome to Inlet" })).toBeVisible();
  // The server ends the session (as expiry does); the next request answers 401.
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-inlet_session");
  await context.request.post("/api/v1/auth/logout", { headers: { authorization: `Bearer ${cookie?.value}` } });
  await page.getByLabel("Site name").fill("After expiry");
  await page.getByRole("button", { name: "Create site" }).click();
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2F/);
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
});

test("a cross-origin form post carrying the cookie is refused", async ({ signedIn: page, context }) => {
  // Another origin's page posting to the API: the browser sends no SameSite=Strict cookie on a
  // cross-site request, and the API refuses a cookie request whose Origin is not its own.
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-inlet_session");
  const forged = await context.request.post("/api/v1/sites", {
    headers: {
      cookie: `__Host-inlet_session=${cookie?.value}`,
      origin: "https://evil.example",
      "content-type": "application/json",
    },
    data: { name: "Forged" },
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error.code).toBe("CSRF_ORIGIN_MISMATCH");
  await page.goto("/");
  await expect(page.getByText("Forged")).toHaveCount(0);
});

test("an invite link opens a sign-up that joins the inviting organization", async ({ page, request, account }) => {
  const invitee = `invitee-${Date.now().toString(36)}@example.com`;
  const created = await request.post("/api/v1/team/invites", {
    headers: { authorization: `Bearer ${account.token}` },
    data: { email: invitee, role: "member" },
  });
  expect(created.status()).toBe(201);
  const { data } = await created.json();
  // The link the API hands out, as a person would open it from their email or chat.
  expect(data.inviteUrl).toMatch(/\/invite#token=inlet_inv_/);
  await page.goto(data.inviteUrl);
  await expect(page.getByRole("heading", { name: "Join your team" })).toBeVisible();
  await expect(page.getByLabel("Organization name")).toHaveCount(0);
  await page.getByLabel("Your name").fill("New Member");
  await page.getByLabel("Email").fill(invitee);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Accept the invite" }).click();
  await expect(page.getByText(`New Member · ${account.organizationName}`)).toBeVisible();
  const other = await createAccount(request);
  expect(other.organizationName).not.toBe(account.organizationName);
});
