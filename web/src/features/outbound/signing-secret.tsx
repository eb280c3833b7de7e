import { Tabs } from "radix-ui";
import { CopyField } from "../../components/ui/copy";
import { underlineTab } from "../../components/ui/tabs";

/**
 * Standard Webhooks verification, as docs/outbound-webhooks.md gives it: the official package
 * for Node and Python, and plain Node crypto for those who add no dependency. The secret is read
 * from the environment in each, never pasted into code.
 */
export const SNIPPETS = [
  {
    id: "node",
    label: "Node (standardwebhooks)",
    code: `// npm install standardwebhooks
import express from "express";
import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.INLET_SIGNING_SECRET); // "whsec_…"
const app = express();

app.post("/hooks/inlet", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // throws on a bad signature or an old timestamp
  } catch {
    return res.status(401).end();
  }
  if (event.type === "webhook.test") return res.status(204).end();
  // Deduplicate on req.headers["webhook-id"], then handle event.data.
  res.status(204).end();
});`,
  },
  {
    id: "python",
    label: "Python (standardwebhooks)",
    code: `# pip install standardwebhooks
import os
from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["INLET_SIGNING_SECRET"])  # "whsec_…"
app = Flask(__name__)

@app.post("/hooks/inlet")
def inlet():
    try:
        event = wh.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "", 401
    if event["type"] == "webhook.test":
        return "", 204
    # Deduplicate on request.headers["webhook-id"], then handle event["data"].
    return "", 204`,
  },
  {
    id: "crypto",
    label: "Node (no dependency)",
    code: `import { createHmac, timingSafeEqual } from "node:crypto";

// id, timestamp, signature: the webhook-id, webhook-timestamp and webhook-signature headers;
// rawBody: the body exactly as received, before any JSON parsing.
export function verify(secret, id, timestamp, signature, rawBody) {
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  return signature.split(" ").some((part) => {
    const [version, sig] = part.split(",");
    const given = Buffer.from(sig ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}`,
  },
] as const;

/** The signing secret, shown once right after creation, with the code that verifies with it. */
export function SigningSecret({ secret }: { secret: string }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Copy the signing secret now and keep it with your receiver (for example as <code>INLET_SIGNING_SECRET</code>). It is shown{" "}
        <strong>only this once</strong>: if it is lost, delete the endpoint and add it again for a new secret.
      </p>
      <CopyField label="Signing secret" value={secret} />
      <div>
        <h3 className="mb-2 text-sm font-medium">Verify each request (Standard Webhooks)</h3>
        <Tabs.Root defaultValue="node">
          <Tabs.List
            aria-label="Verification code"
            className="mb-3 flex flex-wrap gap-2 border-b border-slate-200 dark:border-slate-700"
          >
            {SNIPPETS.map((s) => (
              <Tabs.Trigger key={s.id} value={s.id} className={underlineTab}>
                {s.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {SNIPPETS.map((s) => (
            <Tabs.Content key={s.id} value={s.id}>
              <CopyField label={`${s.label} code`} value={s.code} multiline />
            </Tabs.Content>
          ))}
        </Tabs.Root>
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Each request carries <code>webhook-id</code> (the same on every retry: deduplicate on it),{" "}
          <code>webhook-timestamp</code> and <code>webhook-signature</code>. Answer with a 2xx within 10 seconds; a 410 disables
          the endpoint.
        </p>
      </div>
    </div>
  );
}
