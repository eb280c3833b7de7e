/**
 * `npm run screenshots`: makes the README's pictures of the dashboard again, from the real app
 * and the seed data. It starts the local stack (as `npm start` does) on its own port with a fresh
 * data folder, runs `npm run seed` against it, sends a few submissions to the demo webhook, and
 * photographs the pages in Debian's Chromium:
 *   docs/screenshots/inbox.png         the demo form's inbox
 *   docs/screenshots/source-setup.png  a new source's setup dialog (URL, secret, snippets)
 *   docs/screenshots/delivery-log.png  an outbound webhook's delivery log (a receiver on loopback
 *                                      that fails the first request, so one delivery is retried)
 *   docs/screenshots/api-keys.png      Settings → API keys, with an active, a narrow and a revoked key
 *   docs/screenshots/triage-inbox.png  the inbox worked: statuses, owners, tags, unread rows, a selection
 *   docs/screenshots/lead.png          a lead's page: status, owner, tags, a note and the timeline
 *   docs/screenshots/import.png        a form's Import page: a Formspree export previewed (mapping, first rows, a problem)
 * SCREENSHOT_PORT (default 3190) and CHROMIUM_PATH (default /usr/bin/chromium) change the defaults.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { type Receiver, startReceiver } from "../support/outbound-receiver";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const OUT = join(ROOT, "docs", "screenshots");
const PORT = Number(process.env.SCREENSHOT_PORT ?? 3190);
const BASE = `http://localhost:${PORT}`;
const DEMO = { email: "demo@inlet.local", password: "inlet-demo-password" };
const dataDir = mkdtempSync(join(tmpdir(), "inlet-screenshots-"));
const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn" };
// The browser flags of the tests; the config would otherwise make a data folder of its own.
process.env.E2E_DATA_DIR ??= dataDir;
const { CHROMIUM_ARGS } = await import("../../playwright.config");

/** The leads a small agency's contact form might receive, and one bot. */
const SUBMISSIONS: { fields: Record<string, string>; headers: Record<string, string> }[] = [
  {
    fields: {
      name: "Ada Lovelace",
      email: "ada@analytical.example",
      message: "Could you quote a new website for our engine works?",
    },
    headers: { referer: "http://localhost/contact" },
  },
  {
    fields: { name: "Grace Hopper", email: "grace@navy.example", message: "We need a landing page by the end of the month." },
    headers: { referer: "http://localhost/pricing" },
  },
  {
    fields: { name: "Alan Turing", email: "alan@bletchley.example", message: "Please call me back about the maintenance plan." },
    headers: { referer: "http://localhost/contact" },
  },
  {
    fields: { name: "Katherine Johnson", email: "katherine@langley.example", message: "Is a yearly plan available?" },
    headers: { referer: "http://localhost/pricing" },
  },
  {
    fields: { name: "Cheap pills", email: "bot@spam.example", message: "BUY NOW http://a.example http://b.example", _hp: "x" },
    headers: { "user-agent": "python-requests/2.31" },
  },
];
/** A Formspree-style export for the Import page's picture: its _date and _replyto columns, and one row without a time. */
const FORMSPREE_EXPORT = `_date,_replyto,name,message,_gotcha
2025-09-14T09:12:00Z,mary@somerville.example,Mary Somerville,Do you build booking systems?,
2025-10-02T15:40:00Z,charles@babbage.example,Charles Babbage,"Quote for a redesign, please.",
2025-10-21T11:05:00Z,emmy@noether.example,Emmy Noether,Can we meet next week?,
yesterday,hedy@lamarr.example,Hedy Lamarr,Following up on my call,
`;
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";

async function waitForStack(stack: ChildProcess) {
  for (let i = 0; i < 240; i++) {
    if (stack.exitCode !== null) throw new Error(`the local stack exited (${stack.exitCode})`);
    const ok = await fetch(`${BASE}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the local stack did not answer at ${BASE}/ within two minutes`);
}

async function call<T>(token: string | undefined, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** Sends the demo submissions to the seed's webhook (its secret rotated: a webhook shows it once). */
async function sendDemoSubmissions() {
  const { token } = await call<{ token: string }>(undefined, "POST", "/api/v1/auth/login", DEMO);
  const { sites } = await call<{ sites: { id: string }[] }>(token, "GET", "/api/v1/sites");
  const siteId = sites[0]?.id ?? "";
  const { webhooks } = await call<{ webhooks: { id: string; name: string; webhookUrl: string; formId: string }[] }>(
    token,
    "GET",
    `/api/v1/sites/${siteId}/webhooks`,
  );
  const hook = webhooks.find((w) => w.name === "Demo webhook");
  if (!hook) throw new Error("the seed made no 'Demo webhook'");
  // The delivery log's picture: an endpoint on a loopback receiver (the local stack allows
  // private targets) that answers the first request 503, so that delivery shows its retry.
  receiver.script("/crm", [{ status: 503 }]);
  const endpoint = await call<{ id: string }>(token, "POST", `/api/v1/forms/${hook.formId}/outbound-webhooks`, {
    url: receiver.url("/crm"),
    description: "CRM sync",
  });
  const { secretKey } = await call<{ secretKey: string }>(
    token,
    "POST",
    `/api/v1/sites/${siteId}/webhooks/${hook.id}/rotate-secret`,
  );
  for (const { fields, headers } of SUBMISSIONS) {
    const response = await fetch(hook.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-key": secretKey, "user-agent": BROWSER_UA, ...headers },
      body: JSON.stringify(fields),
    });
    if (!response.ok) throw new Error(`intake refused a demo submission: ${response.status} ${await response.text()}`);
  }
  // Lead grades are computed after intake, by the pipeline: wait until every lead has one.
  for (let i = 0; i < 60; i++) {
    const { submissions } = await call<{ submissions: { lead: unknown }[] }>(
      token,
      "GET",
      `/api/v1/forms/${hook.formId}/submissions`,
    );
    if (submissions.length >= SUBMISSIONS.length - 1 && submissions.every((s) => s.lead)) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // Every lead delivered (the 503 one on its retry, 5 s later), then a test event on top.
  await call(token, "POST", `/api/v1/forms/${hook.formId}/outbound-webhooks/${endpoint.id}/test`);
  for (let i = 0; i < 90; i++) {
    const { deliveries } = await call<{ deliveries: { status: string }[] }>(
      token,
      "GET",
      `/api/v1/forms/${hook.formId}/outbound-webhooks/${endpoint.id}/deliveries`,
    );
    if (deliveries.length >= SUBMISSIONS.length && deliveries.every((d) => d.status === "delivered")) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { siteId, formId: hook.formId, endpointId: endpoint.id };
}

/** The demo organization's API keys (the seed puts it on Agency): one of each state worth showing. */
async function createDemoKeys() {
  const { token } = await call<{ token: string }>(undefined, "POST", "/api/v1/auth/login", DEMO);
  const key = (body: unknown) => call<{ key: { id: string } }>(token, "POST", "/api/v1/api-keys", body);
  const old = await key({ name: "Old spreadsheet sync", permissions: ["submissions.view"] });
  await call(token, "DELETE", `/api/v1/api-keys/${old.key.id}`);
  await key({ name: "Reporting dashboard", permissions: ["forms.view", "submissions.view", "sites.view"], expiresInDays: 90 });
  await key({ name: "CRM sync" });
}

/** The demo leads worked a little: two tags, statuses, an owner, a note, one lead opened. */
async function triageDemo(formId: string) {
  const { token } = await call<{ token: string }>(undefined, "POST", "/api/v1/auth/login", DEMO);
  const { user } = await call<{ user: { id: string } }>(token, "GET", "/api/v1/auth/me");
  const tag = (name: string, colour: string) =>
    call<{ tag: { id: string } }>(token, "POST", "/api/v1/tags", { name, colour }).then((r) => r.tag.id);
  const quote = await tag("Quote", "green");
  const callBack = await tag("Call back", "amber");
  const { submissions } = await call<{ submissions: { id: string; data: Record<string, unknown> }[] }>(
    token,
    "GET",
    `/api/v1/forms/${formId}/submissions`,
  );
  const idOf = (name: string) => submissions.find((s) => s.data.name === name)?.id ?? "";
  const ada = idOf("Ada Lovelace");
  await call(token, "PATCH", `/api/v1/submissions/${ada}`, { status: "contacted", ownerId: user.id, tags: [quote] });
  await call(token, "PATCH", `/api/v1/submissions/${idOf("Grace Hopper")}`, { status: "qualified", tags: [quote, callBack] });
  await call(token, "PATCH", `/api/v1/submissions/${idOf("Alan Turing")}`, { tags: [callBack] });
  await call(token, "POST", `/api/v1/submissions/${ada}/notes`, {
    body: "Called back: wants a quote for the engine works by Friday.",
  });
  await call(token, "PUT", `/api/v1/submissions/${ada}/read`);
  await call(token, "PUT", `/api/v1/submissions/${idOf("Grace Hopper")}/read`);
  return ada;
}

async function photograph({ siteId, formId, endpointId }: { siteId: string; formId: string; endpointId: string }) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, colorScheme: "light" });
    await page.goto(`${BASE}/sign-in`);
    await page.getByLabel("Email").fill(DEMO.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();

    await page.goto(`${BASE}/forms/${formId}`);
    await page.getByRole("link", { name: "Ada Lovelace" }).waitFor();
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.screenshot({ path: join(OUT, "inbox.png") });
    await page.setViewportSize({ width: 1280, height: 760 });

    const ada = await triageDemo(formId);
    await page.goto(`${BASE}/forms/${formId}`);
    await page.getByText("Owner: me").waitFor();
    await page.getByRole("checkbox", { name: "Select Katherine Johnson" }).check();
    await page.getByRole("region", { name: "Selection actions" }).waitFor();
    await page.setViewportSize({ width: 1280, height: 1180 });
    await page.screenshot({ path: join(OUT, "triage-inbox.png") });

    await page.goto(`${BASE}/submissions/${ada}`);
    await page.getByRole("region", { name: "Timeline" }).getByText("set the status").waitFor();
    await page.screenshot({ path: join(OUT, "lead.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 760 });

    await page.goto(`${BASE}/sites/${siteId}`);
    await page.getByRole("img", { name: /Submissions per day/ }).waitFor();
    await page.screenshot({ path: join(OUT, "overview.png"), fullPage: true });

    await page.goto(`${BASE}/sites/${siteId}/sources`);
    await page.getByRole("button", { name: "New source" }).click();
    await page.getByLabel("Source name").fill("Pricing page form");
    await page.getByRole("button", { name: "Create source" }).click();
    await page
      .getByRole("dialog", { name: "Pricing page form is ready" })
      .getByRole("textbox", { name: "Secret", exact: true })
      .waitFor();
    await page.screenshot({ path: join(OUT, "source-setup.png") });

    await page.goto(`${BASE}/settings/api-keys`);
    await page.getByRole("heading", { name: "Old spreadsheet sync" }).waitFor();
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.screenshot({ path: join(OUT, "api-keys.png") });

    await page.goto(`${BASE}/forms/${formId}/webhooks/${endpointId}`);
    await page.getByRole("list", { name: "Deliveries" }).getByRole("table").first().waitFor();
    await page.screenshot({ path: join(OUT, "delivery-log.png"), fullPage: true });

    await page.goto(`${BASE}/forms/${formId}/import`);
    await page.getByLabel("Export file (CSV or JSON)").setInputFiles({
      name: "formspree-export.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(FORMSPREE_EXPORT),
    });
    await page.getByRole("button", { name: /^Import \d+ rows$/ }).waitFor();
    await page.screenshot({ path: join(OUT, "import.png"), fullPage: true });
  } finally {
    await browser.close();
  }
}

mkdirSync(OUT, { recursive: true });
const receiver: Receiver = await startReceiver();
const stack = spawn(process.execPath, ["--import", "tsx", "infra/local/start.ts"], {
  cwd: ROOT,
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await waitForStack(stack);
  execFileSync(process.execPath, ["--import", "tsx", "infra/local/seed.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const demo = await sendDemoSubmissions();
  await createDemoKeys();
  await photograph(demo);
  console.log(
    `Wrote ${["inbox.png", "triage-inbox.png", "lead.png", "overview.png", "source-setup.png", "delivery-log.png", "api-keys.png", "import.png"].map((f) => join(OUT, f)).join(", ")}`,
  );
} finally {
  stack.kill("SIGTERM");
  await new Promise((resolve) => stack.once("exit", resolve));
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
