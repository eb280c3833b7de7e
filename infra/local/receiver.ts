/**
 * A tiny outbound webhook receiver for the local stack: prints every request it gets and checks
 * its Standard Webhooks signature with the `standardwebhooks` package, exactly as a real receiver
 * would (docs/outbound-webhooks.md).
 *
 *   npx tsx infra/local/receiver.ts [--port 4000] [--secret whsec_...] [--status 200]
 *
 * The secret (also OUTBOUND_SECRET) is the `signingSecret` the create route answered; without
 * it requests are printed unverified. `--status` picks the answer (e.g. 500 to watch the retries,
 * 410 to see the endpoint disabled). A request with a bad signature is answered 401.
 * The local stack allows private targets (ALLOW_PRIVATE_WEBHOOK_TARGETS=true), so an endpoint
 * may point here: `http://127.0.0.1:4000/`.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4000" },
    secret: { type: "string", default: process.env.OUTBOUND_SECRET ?? "" },
    status: { type: "string", default: "200" },
  },
});

const port = Number(values.port);
const status = Number(values.status);
const webhook = values.secret ? new Webhook(values.secret) : undefined;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
    );
    let verdict = "not verified (start with --secret whsec_... to check signatures)";
    let answer = status;
    if (webhook) {
      try {
        webhook.verify(body, headers);
        verdict = "signature valid";
      } catch (error) {
        verdict = `signature INVALID: ${(error as Error).message}`;
        answer = 401;
      }
    }
    let pretty = body;
    try {
      pretty = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // not JSON: printed as it came
    }
    console.log(
      [
        `--- ${new Date().toISOString()} ${req.method} ${req.url}`,
        `webhook-id: ${headers["webhook-id"] ?? "(none)"}`,
        `webhook-timestamp: ${headers["webhook-timestamp"] ?? "(none)"}`,
        `webhook-signature: ${headers["webhook-signature"] ?? "(none)"}`,
        `user-agent: ${headers["user-agent"] ?? "(none)"}`,
        verdict,
        pretty,
        `→ answered ${answer}`,
      ].join("\n"),
    );
    res.writeHead(answer, { "content-type": "text/plain" });
    res.end(answer < 300 ? "ok" : "error");
  });
});

server.listen(port, "127.0.0.1", () => {
  console.log(`Outbound webhook receiver on http://127.0.0.1:${port}/ (answers ${status})`);
});
