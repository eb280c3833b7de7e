import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { type RouteKey, route } from "../../../functions/routes";
import { guardTableGrants, runAs } from "../../../infra/local/grants";
import { grantOf } from "../../../infra/table-grants";
import { createApiKey } from "../../../lib/api-keys";
import { resolveSession } from "../../../lib/auth/sessions";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { getApiKey, setCreatorRole, touchApiKey } from "../../../lib/store/api-keys";
import { incrementCounter } from "../../../lib/store/counters";
import { keys } from "../../../lib/store/keys";
import { updateMemberRole } from "../../../lib/store/members";
import { updateOrganization } from "../../../lib/store/organizations";
import { claimFirstPlatformAdmin } from "../../../lib/store/platform-admin";
import { type Account, createSite, setPlan, signupOwner } from "../../support/api";

/**
 * The local grant check (infra/local/grants.ts) judges attributes as IAM does: a write that names
 * an attribute outside its function's grant is refused with AccessDeniedException, here as in
 * AWS, and nothing of it is written. The check is installed on this process's client, as the test
 * stack installs it on its own (INLET_GRANTS=enforce); DynamoDB Local does the rest.
 */

/** The refusals the check logged (the test stack's log gets the same line). */
let logged: string[] = [];
beforeAll(() => {
  guardTableGrants(db(), "enforce");
});
beforeEach(() => {
  logged = [];
  jest.spyOn(console, "error").mockImplementation((line: unknown) => {
    logged.push(String(line));
  });
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** Runs `fn` as the function of `routeKey`, held to its grant as deployed. */
const as = <T>(routeKey: RouteKey, fn: () => Promise<T>, firstAccountRule = false) => {
  const def = route(routeKey);
  return runAs(def.handler, grantOf(def, { firstAccountRule }), fn);
};
const refused = { name: "AccessDeniedException" };
const item = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const INTAKE = "POST /api/v1/incoming/{webhookId}";

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("grants");
  siteId = await createSite(owner, "Granted");
});

describe("a function that counts on a site", () => {
  const addFormCount = () =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.site(owner.orgId, siteId),
        UpdateExpression: "ADD formCount :zero",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":zero": 0 },
      }),
    );

  test("may move the site's form count", async () => {
    await expect(as(INTAKE, addFormCount)).resolves.toBeDefined();
  });

  test("may not make a member the owner, nor change an organization's plan", async () => {
    await expect(as(INTAKE, () => updateMemberRole(owner.orgId, owner.userId, "admin", []))).rejects.toMatchObject(refused);
    expect(logged.map((line) => JSON.parse(line).detail)).toEqual([
      "intake/receive-submission is not granted dynamodb:UpdateItem on ORG#* naming pk, sk, role (infra/table-grants.ts)",
    ]);
    await expect(
      as(INTAKE, () => updateOrganization(owner.orgId, { plan: "enterprise" }, new Date().toISOString())),
    ).rejects.toMatchObject(refused);
    expect(await item(keys.member(owner.orgId, owner.userId))).toMatchObject({ role: "owner" });
    expect(await item(keys.organization(owner.orgId))).toMatchObject({ plan: "free" });
  });

  test("a nested path is the attribute it starts at: a site's form count is no way into its captcha settings", async () => {
    const setCaptchaKey = () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.site(owner.orgId, siteId),
          UpdateExpression: "SET #c.#k = :k ADD formCount :zero",
          ExpressionAttributeNames: { "#c": "captcha", "#k": "secretKey" },
          ExpressionAttributeValues: { ":k": "stolen", ":zero": 0 },
        }),
      );
    await expect(as("POST /api/v1/sites/{id}/forms", setCaptchaKey)).rejects.toMatchObject(refused);
  });

  test("one item outside the grant refuses the whole transaction, and nothing is written", async () => {
    const before = (await item(keys.site(owner.orgId, siteId)))?.formCount;
    const transaction = () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.site(owner.orgId, siteId),
                UpdateExpression: "ADD formCount :one",
                ExpressionAttributeValues: { ":one": 1 },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: keys.member(owner.orgId, owner.userId),
                UpdateExpression: "SET passwordHash = :h",
                ExpressionAttributeValues: { ":h": "attacker's" },
              },
            },
          ],
        }),
      );
    await expect(as("POST /api/v1/sites/{id}/forms", transaction)).rejects.toMatchObject(refused);
    expect((await item(keys.site(owner.orgId, siteId)))?.formCount).toBe(before);
    expect((await item(keys.member(owner.orgId, owner.userId)))?.passwordHash).not.toBe("attacker's");
  });
});

describe("a read-only route", () => {
  const LIST_SITES = "GET /api/v1/sites";
  let keyId: string;
  beforeAll(async () => {
    await setPlan(owner.orgId, "agency");
    const principal = await resolveSession(owner.token);
    keyId = (await createApiKey(principal, { name: "bookkeeping" }, "127.0.0.1")).key.id;
  });

  test("counts its API key's requests and stamps the key's lastUsedAt", async () => {
    await expect(as(LIST_SITES, () => incrementCounter("apikey", keyId, 60))).resolves.toMatchObject({ count: 1 });
    const now = new Date().toISOString();
    await as(LIST_SITES, () => touchApiKey(keyId, now));
    expect((await getApiKey(keyId))?.lastUsedAt).toBe(now);
  });

  test("cannot set a key's creatorRole, nor reset another scope's counter (the login throttle)", async () => {
    await expect(as(LIST_SITES, () => setCreatorRole(keyId, "member"))).rejects.toMatchObject(refused);
    await expect(as(LIST_SITES, () => incrementCounter("login-email", owner.email, 900, Date.now(), -10))).rejects.toMatchObject(
      refused,
    );
    expect((await getApiKey(keyId))?.creatorRole).toBe("owner");
  });
});

describe("creating an API key while the plan changes", () => {
  test("the key met by a plan change is taken back and stored again within create-api-key's grant", async () => {
    const account = await signupOwner("grants-plan");
    await setPlan(account.orgId, "agency");
    const principal = await resolveSession(account.token);
    await setPlan(account.orgId, "enterprise");
    const { key } = await as("POST /api/v1/api-keys", () => createApiKey(principal, { name: "raced" }, "127.0.0.1"));
    expect((await getApiKey(key.id))?.plan).toBe("enterprise");
    expect((await item(keys.organization(account.orgId)))?.apiKeyCount).toBe(1);
  });
});

describe("signup's first-account claim", () => {
  const SIGNUP = "POST /api/v1/auth/signup";

  test("is refused where the rule does not run (the CDK app, the test stack)", async () => {
    await expect(as(SIGNUP, () => claimFirstPlatformAdmin(owner.orgId, owner.userId))).rejects.toMatchObject(refused);
    expect((await item(keys.member(owner.orgId, owner.userId)))?.platformAdmin).toBeUndefined();
  });

  test("is granted where it runs (npm start): the marker, or finding it taken", async () => {
    // Another test file may have claimed the marker in this table already: then the claim answers false.
    const won = await as(SIGNUP, () => claimFirstPlatformAdmin(owner.orgId, owner.userId), true);
    expect((await item(keys.member(owner.orgId, owner.userId)))?.platformAdmin).toBe(won ? true : undefined);
  });
});
