/**
 * `npm start`: the whole service on this machine, no AWS account and no Docker.
 * Ctrl-C stops it; data stays in DATA_DIR (delete the folder for a fresh database).
 */
import { parseLocalConfig } from "../../lib/config";
import { ensureWebBuild } from "../web-build";
import { startLocalStack } from "./stack";

const local = parseLocalConfig(process.env);
const started = Date.now();
// The dashboard is built first when its build is missing or older than web/'s sources.
const webDir = ensureWebBuild();
const { info, stop } = await startLocalStack(local, { webDir });

console.log(`
Inlet is running at ${info.url}   (started in ${((Date.now() - started) / 1000).toFixed(1)} s)
  Dashboard        ${info.baseUrl}/
  API base URL     ${info.baseUrl}/api/v1
  DynamoDB Local   ${info.dynamodbEndpoint}   table ${info.tableName}
  SQS emulator     ${info.sqsEndpoint}
  Emails (SES)     ${info.sesEndpoint}   open it in a browser: every email sent (notifications, verification links); JSON at /store
  SES events       ${info.eventBusEndpoint}   EventBridge's PutEvents: put SES's events of an email here (docs/email.md, "Locally")
  Data folder      ${info.dataDir}

Create a first account (locally only, the first account becomes the platform admin once its
address is verified: the verification link is in the Emails page above):
  curl -s -X POST ${info.url}/api/v1/auth/signup -H 'content-type: application/json' \\
    -d '{"email":"you@example.com","password":"a-long-password","name":"You","organizationName":"Acme"}'
or run \`npm run seed\` in another terminal for a demo owner, an Agency organization and a site.
`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping Inlet...");
    void stop().finally(() => process.exit(0));
  });
}
