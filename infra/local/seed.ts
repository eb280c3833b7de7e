/**
 * `npm run seed`: with `npm start` running, creates a demo owner, an Agency organization and a
 * site in the local stack, and prints what a newcomer needs next. Running it again logs in.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseLocalConfig } from "../../lib/config";
import { LOCAL_CREDENTIALS } from "./emulators";
import { type LocalStackInfo, stackFile } from "./stack-file";

const DEMO = { email: "demo@inlet.local", password: "inlet-demo-password", name: "Demo Owner" };

const local = parseLocalConfig(process.env);
const file = stackFile(local.DATA_DIR);
if (!existsSync(file)) {
  console.error(`No running local stack found (${file}). Start it first with \`npm start\`.`);
  process.exit(1);
}
const info = JSON.parse(readFileSync(file, "utf8")) as LocalStackInfo;
Object.assign(process.env, {
  TABLE_NAME: info.tableName,
  DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
  AWS_REGION: info.region,
  BASE_URL: info.baseUrl,
  AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? LOCAL_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? LOCAL_CREDENTIALS.secretAccessKey,
});

const { AppError } = await import("../../lib/errors");
const { login, signup } = await import("../../lib/accounts");
const { changePlan } = await import("../../lib/admin");
const { createSite, sitesOf } = await import("../../lib/sites");

let auth;
try {
  auth = await signup({ ...DEMO, organizationName: "Demo Agency" });
  console.log("Created the demo owner and organization.");
} catch (error) {
  if (!(error instanceof AppError && error.code === "EMAIL_TAKEN")) throw error;
  auth = await login({ email: DEMO.email, password: DEMO.password, sourceIp: "127.0.0.1" });
  console.log("The demo account exists already; logged in.");
}
await changePlan(auth.organization.id, "agency");
const existing = await sitesOf(auth.organization.id, 1);
const site = existing.sites[0] ?? (await createSite(auth.organization.id, { name: "Demo site", domain: "localhost" })).site;

const api = `${info.url}/api/v1`;
console.log(`
  Email            ${DEMO.email}
  Password         ${DEMO.password}
  Organization     ${auth.organization.id} (agency plan)
  Site             ${site.id} (${site.name})
  Session token    ${auth.token}

Try:
  export TOKEN=${auth.token}
  curl -s ${api}/auth/me -H "authorization: Bearer $TOKEN"
  curl -s ${api}/sites -H "authorization: Bearer $TOKEN"
`);
