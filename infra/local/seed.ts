/**
 * `npm run seed`: with `npm start` running, creates a demo owner, an Agency organization and a
 * site in the local stack, and prints what a newcomer needs next. Running it again logs in.
 */
import { parseLocalConfig } from "../../lib/config";
import { LOCAL_CREDENTIALS } from "./emulators";
import { localTableEnv, runningLocalStack, stackFile } from "./stack-file";

const DEMO = { email: "demo@inlet.local", password: "inlet-demo-password", name: "Demo Owner" };

const local = parseLocalConfig(process.env);
const info = runningLocalStack(local.DATA_DIR);
if (!info) {
  console.error(`No running local stack found (${stackFile(local.DATA_DIR)}). Start it first with \`npm start\`.`);
  process.exit(1);
}
Object.assign(process.env, {
  ...localTableEnv(info, LOCAL_CREDENTIALS),
  BASE_URL: info.baseUrl,
  // As in the local stack: the first account of this local deployment becomes its platform admin once verified.
  FIRST_ACCOUNT_ADMIN: process.env.FIRST_ACCOUNT_ADMIN ?? "true",
  // The verification email goes to the stack's SES emulator, as the gateway's would.
  ...(info.sesEndpoint ? { SES_ENDPOINT: info.sesEndpoint } : {}),
});

const { AppError } = await import("../../lib/errors");
const { login, signup } = await import("../../lib/accounts");
const { confirmEmailLink } = await import("../../lib/account-address");
const { changePlan } = await import("../../lib/admin");
const { createSite, sitesOf } = await import("../../lib/sites");
const { createForm, listForms } = await import("../../lib/forms");
const { createWebhook, listWebhooks, rotateWebhookSecret } = await import("../../lib/webhooks");
const { resolveSession } = await import("../../lib/auth/sessions");

let auth: Awaited<ReturnType<typeof signup>>;
try {
  auth = await signup({ ...DEMO, organizationName: "Demo Agency" });
  console.log("Created the demo owner and organization.");
} catch (error) {
  if (!(error instanceof AppError && error.code === "EMAIL_TAKEN")) throw error;
  auth = await login({ email: DEMO.email, password: DEMO.password, sourceIp: "127.0.0.1" });
  console.log("The demo account exists already; logged in.");
}
// Verify the demo address the way a person would: the link in the email the emulator received,
// confirmed from the demo account's own session (docs/accounts.md).
let verification = "already verified";
if (!auth.user.emailVerified && info.sesEndpoint) {
  const res = await fetch(`${info.sesEndpoint}/store`);
  const { emails } = (await res.json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
  const tokens = emails
    .filter((e) => e.destination.to.includes(DEMO.email))
    .map((e) => /#token=(inlet_eml_[0-9A-Za-z]+)/.exec(e.body.text ?? "")?.[1])
    .filter((t): t is string => t !== undefined);
  const token = tokens.at(-1);
  verification = "not verified: no verification email found; POST /api/v1/auth/verify-email/resend sends one";
  if (token) {
    await confirmEmailLink(await resolveSession(auth.token), token);
    verification = `verified with the link emailed to it (open ${info.sesEndpoint} to see the email)`;
  }
}
await changePlan(auth.organization.id, "agency");
const existing = await sitesOf(auth.organization.id, 1);
const site = existing.sites[0] ?? (await createSite(auth.organization.id, { name: "Demo site", domain: "localhost" })).site;

// A published form that notifies the demo owner, and a webhook feeding it. A webhook's secret is
// shown only once, so a re-run rotates the demo webhook's secret to print a working one.
const principal = await resolveSession(auth.token);
const forms = await listForms(principal, site.id, false, 10);
const form =
  forms.forms.find((f: { name: string }) => f.name === "Demo contact form") ??
  (
    await createForm(principal, site.id, {
      name: "Demo contact form",
      status: "published",
      fields: [
        { key: "name", label: "Name", type: "name" },
        { key: "email", label: "Email", type: "email", required: true },
        { key: "message", label: "Message", type: "textarea" },
      ],
      settings: { notifyEmails: [DEMO.email] },
    })
  ).form;
const webhooks = await listWebhooks(principal, site.id, false);
const existingHook = webhooks.webhooks.find((w) => w.name === "Demo webhook");
const hook = existingHook
  ? { id: existingHook.id, secretKey: (await rotateWebhookSecret(principal, "127.0.0.1", site.id, existingHook.id)).secretKey }
  : await createWebhook(principal, site.id, { name: "Demo webhook", formId: form.id });

const api = `${info.url}/api/v1`;
console.log(`
  Email            ${DEMO.email} (${verification})
  Password         ${DEMO.password}
  Organization     ${auth.organization.id} (agency plan)
  Site             ${site.id} (${site.name})
  Form             ${form.id} (notifies ${DEMO.email})
  Webhook          ${hook.id}
  Webhook secret   ${hook.secretKey}   (shown once; \`npm run seed\` again rotates it)
  Session token    ${auth.token}

Try:
  export TOKEN=${auth.token}
  curl -s ${api}/auth/me -H "authorization: Bearer $TOKEN"
  curl -s ${api}/sites -H "authorization: Bearer $TOKEN"

Post a submission (as an HTML form would), then read it and the email it sent:
  curl -s -X POST ${api}/incoming/${hook.id} -H "x-webhook-key: ${hook.secretKey}" \\
    -H "referer: http://localhost/contact" -H "user-agent: Mozilla/5.0" \\
    --data-urlencode name=Ada --data-urlencode email=ada@example.com \\
    --data-urlencode "message=Please call me back about a quote."
  curl -s "${api}/forms/${form.id}/submissions" -H "authorization: Bearer $TOKEN"
  ${info.sesEndpoint ? `curl -s ${info.sesEndpoint}/store    # or open ${info.sesEndpoint} in a browser` : ""}
`);
