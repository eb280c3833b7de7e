import { BOOKKEEPER, DIGESTS, EMAIL_EVENTS, QUEUE_CONSUMER, ROUTES, type RouteDef, route } from "../../../functions/routes";
import { grantContextOf, settingsFromContext } from "../../../infra/environment";
import {
  BY_ATTRIBUTE,
  FIRST_ACCOUNT_WRITES,
  grantOf,
  P,
  TABLE_WRITES,
  type TableGrant,
  type WriteOperation,
  type WriteTarget,
  writeStatements,
} from "../../../infra/table-grants";
import {
  FORM_ITEM,
  MEMBER_ITEM,
  ORGANIZATION_ITEM,
  SITE_ITEM,
  SITE_SETTINGS,
  TAG_ITEM,
  TAG_NAME_CLAIM,
} from "../../../infra/write-attributes";
import {
  actionsOf,
  asList,
  loadApp,
  onlyLogicalId,
  type Resource,
  roleStatements,
  type Statement,
  type Synthesized,
  statementsOf,
} from "./support";

/**
 * The table grants as the synthesized roles hold them (infra/table-grants.ts, docs/deployment.md
 * "Least privilege"): each role exactly its declared statements, and what those statements let
 * each function write, by partition and by attribute.
 */

const routes: readonly RouteDef[] = ROUTES;
let resources: Record<string, Resource>;
let tableId: string;
let app: Synthesized;

beforeAll(() => {
  app = loadApp();
  resources = app.resources;
  tableId = onlyLogicalId(app.template, "AWS::DynamoDB::Table");
});

const WRITE_ACTION = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;
const sorted = (list: readonly string[]) => [...list].sort();
const sortJson = <T>(list: T[]) => [...list].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

/** A write statement as IAM holds it: actions, partitions (LeadingKeys patterns), attribute names (or null: whole items). */
interface Granted {
  actions: string[];
  leadingKeys: string[];
  attributes: string[] | null;
}

/** The DynamoDB write statements of a role, read back from its conditions. */
function grantedWrites(statements: Statement[]): Granted[] {
  return statements
    .filter((st) => actionsOf([st]).some((a) => WRITE_ACTION.test(a)))
    .map((st) => {
      const condition = st.Condition ?? {};
      const like = (condition["ForAllValues:StringLike"] ?? {}) as Record<string, string[]>;
      const equals = (condition["ForAllValues:StringEquals"] ?? {}) as Record<string, string[]>;
      expect(Object.keys(condition).sort()).toEqual(
        equals["dynamodb:Attributes"] ? ["ForAllValues:StringEquals", "ForAllValues:StringLike"] : ["ForAllValues:StringLike"],
      );
      const attributes = equals["dynamodb:Attributes"] ?? like["dynamodb:Attributes"] ?? null;
      // A pattern (`s*`) only under StringLike; StringEquals names exactly.
      if (equals["dynamodb:Attributes"]) expect(attributes?.some((a) => a.includes("*"))).toBe(false);
      return {
        actions: sorted(actionsOf([st])),
        leadingKeys: sorted(like["dynamodb:LeadingKeys"] ?? []),
        attributes: attributes ? sorted(attributes) : null,
      };
    });
}

const pattern = (partition: string) => (partition.endsWith("#") ? `${partition}*` : partition);

/** What `grant` must become, independently of the statement builder: one entry per (operation, target). */
function declared(grant: TableGrant): { action: string; leadingKey: string; attributes: string[] | null }[] {
  const all = (Object.entries(grant.writes) as [WriteOperation, readonly WriteTarget[]][]).flatMap(([op, targets]) =>
    targets.map((t) => ({
      action: `dynamodb:${op}`,
      leadingKey: pattern(typeof t === "string" ? t : t.partition),
      attributes: typeof t === "string" ? null : sorted([...new Set(["pk", "sk", ...t.attributes])]),
    })),
  );
  // Two names of one partition (the site's sequence and days: SITE#) are one grant.
  return [...new Map(all.map((d) => [JSON.stringify(d), d])).values()];
}

/** The statements' (action, partition, attributes) triples: what IAM allows, flattened. */
const flatten = (granted: Granted[]) =>
  granted.flatMap((g) =>
    g.actions.flatMap((action) => g.leadingKeys.map((leadingKey) => ({ action, leadingKey, attributes: g.attributes }))),
  );

const everyFunction = () => [
  ...routes.map((route) => ({ name: route.handler, statements: statementsOf(route), grant: grantOf(route) })),
  { name: QUEUE_CONSUMER.handler, statements: roleStatements("Inlet intake queue consumer"), grant: grantOf(QUEUE_CONSUMER) },
  {
    name: EMAIL_EVENTS.handler,
    statements: roleStatements("Inlet: SES events recorded (each email's fate, suppressed addresses on their forms)"),
    grant: grantOf(EMAIL_EVENTS),
  },
  {
    name: BOOKKEEPER.handler,
    statements: roleStatements("Inlet bookkeeper: counts from the table stream"),
    grant: grantOf(BOOKKEEPER),
  },
  {
    name: DIGESTS.handler,
    statements: roleStatements("Inlet: members' daily and weekly digests, every hour"),
    grant: grantOf(DIGESTS),
  },
];

/** The attributes a function may name in puts and updates of `partition`, each target apart. */
function attributeSets(statements: Statement[], partition: string): string[][] {
  return grantedWrites(statements)
    .filter((g) => g.leadingKeys.includes(pattern(partition)) && g.actions.some((a) => /PutItem|UpdateItem/.test(a)))
    .map((g) => (g.attributes ?? ["<every attribute>"]).filter((a) => a !== "pk" && a !== "sk"));
}

describe("each role holds exactly its declared table grant", () => {
  test.each(routes.map((r) => [r.route, r] as const))("%s", (_key, route) => {
    const statements = statementsOf(route);
    const grant = grantOf(route);
    const reads = statements.filter((st) => actionsOf([st]).some((a) => a.startsWith("dynamodb:") && !WRITE_ACTION.test(a)));
    if (grant.access === "none") {
      expect(actionsOf(statements).filter((a) => a.startsWith("dynamodb:"))).toEqual([]);
      return;
    }
    const tableArn = { "Fn::GetAtt": [tableId, "Arn"] };
    expect(
      reads.map((st) => ({
        actions: sorted(actionsOf([st])),
        resources: sortJson(asList(st.Resource)),
        condition: st.Condition,
      })),
    ).toEqual([
      {
        actions: ["dynamodb:BatchGetItem", "dynamodb:ConditionCheckItem", "dynamodb:GetItem", "dynamodb:Query"],
        resources: sortJson([tableArn, { "Fn::Join": ["", [tableArn, "/index/gsi1"]] }]),
        condition: undefined,
      },
    ]);
    for (const st of statements.filter((x) => actionsOf([x]).some((a) => WRITE_ACTION.test(a)))) {
      expect(st.Resource).toEqual(tableArn);
    }
    expect(sortJson(flatten(grantedWrites(statements)))).toEqual(sortJson(declared(grant)));
  });

  test("the consumer's and the SES events' roles too", () => {
    for (const fn of everyFunction().slice(routes.length)) {
      expect([fn.name, sortJson(flatten(grantedWrites(fn.statements)))]).toEqual([fn.name, sortJson(declared(fn.grant))]);
    }
  });

  test("the statement builder loses and merges nothing: one statement per distinct attribute set and partition set", () => {
    for (const grant of [
      ...everyFunction().map((f) => f.grant),
      grantOf(route("POST /api/v1/auth/signup"), { firstAccountRule: true }),
    ]) {
      const statements = writeStatements(grant);
      const flat = statements.flatMap((s) =>
        s.operations.flatMap((op) =>
          s.partitions.map((p) => ({
            action: `dynamodb:${op}`,
            leadingKey: pattern(p),
            attributes: s.attributes ? sorted(s.attributes) : null,
          })),
        ),
      );
      expect(sortJson(flat)).toEqual(sortJson(declared(grant)));
      const ids = statements.map((s) => JSON.stringify([sorted(s.partitions), s.attributes ? sorted(s.attributes) : null]));
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  test("every write route declares its writes, and only functions that write do", () => {
    const writeHandlers = routes.filter((r) => r.table === "write").map((r) => r.handler as string);
    for (const handler of writeHandlers)
      expect([handler, Object.keys(TABLE_WRITES[handler] ?? {}).length > 0]).toEqual([handler, true]);
    expect(Object.keys(TABLE_WRITES).sort()).toEqual(
      [...writeHandlers, QUEUE_CONSUMER.handler, EMAIL_EVENTS.handler, BOOKKEEPER.handler, DIGESTS.handler].sort(),
    );
    for (const handler of Object.keys(FIRST_ACCOUNT_WRITES)) expect(writeHandlers).toContain(handler);
  });

  test("every role's policies stay well inside IAM's 10,240 characters of inline policy per role", () => {
    const byRole = new Map<string, number>();
    for (const r of Object.values(resources).filter((x) => x.Type === "AWS::IAM::Policy")) {
      // CloudFormation's references become ARNs of about a hundred characters.
      const size = JSON.stringify(r.Properties.PolicyDocument, (_k, v) =>
        v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).some((k) => k.startsWith("Fn::") || k === "Ref")
          ? "x".repeat(100)
          : v,
      ).length;
      for (const role of asList(r.Properties.Roles) as { Ref: string }[])
        byRole.set(role.Ref, (byRole.get(role.Ref) ?? 0) + size);
    }
    const largest = Math.max(...byRole.values());
    expect(largest).toBeLessThan(8_000);
  });
});

describe("what each function may write, by partition and attribute", () => {
  test("puts and updates of the partitions granted by attribute always name their attributes; deletes reach whole items", () => {
    const narrowed = BY_ATTRIBUTE.map(pattern);
    for (const fn of everyFunction()) {
      for (const g of grantedWrites(fn.statements)) {
        const shared = g.leadingKeys.some((k) => narrowed.some((n) => k.startsWith(n.slice(0, -1))));
        const writesItems = g.actions.some((a) => a === "dynamodb:PutItem" || a === "dynamodb:UpdateItem");
        if (shared && writesItems)
          expect([fn.name, g.actions, g.leadingKeys, g.attributes === null]).toEqual([fn.name, g.actions, g.leadingKeys, false]);
      }
    }
  });

  test("ORG# (organization, members, sites): each function names only the attributes of its own job", () => {
    const orgWriters: Record<string, string[][]> = {
      "auth/signup": [[...ORGANIZATION_ITEM], [...MEMBER_ITEM], ["emailLostAt", "email"]],
      "auth/verify-email": [["emailVerifiedAt", "email", "emailLostAt"]],
      "auth/reset-password": [["passwordHash", "sessionEpoch", "emailVerifiedAt", "email"]],
      "auth/change-password": [["passwordHash", "sessionEpoch"]],
      "auth/end-other-sessions": [["sessionEpoch"]],
      "auth/update-me": [["name"]],
      "account/update-notifications": [["timeZone", "notifications", "digests", "gsi1pk", "gsi1sk"]],
      [DIGESTS.handler]: [["digests", "gsi1pk", "gsi1sk"]],
      "team/update-member": [["role"]],
      "organization/rename-organization": [["name", "updatedAt"]],
      "admin/update-organization": [["plan", "updatedAt"]],
      "api-keys/create-api-key": [["apiKeyCount"]],
      "api-keys/delete-api-key": [["apiKeyCount"]],
      "sites/create-site": [[...SITE_ITEM]],
      "sites/update-site": [[...SITE_SETTINGS]],
      "webhooks/create-webhook": [["webhookCount"]],
      "webhooks/delete-webhook": [["webhookCount", "formCount"]],
      "forms/create-form": [["formCount"]],
      "forms/duplicate-form": [["formCount"]],
      "forms/delete-form": [["formCount"]],
      "intake/receive-submission": [["formCount"]],
      // Tags (lib/store/tags.ts): the tag, its name's claim, the organization's count; a rename.
      "tags/create-tag": [[...TAG_ITEM], [...TAG_NAME_CLAIM], ["tagCount"]],
      "tags/update-tag": [["name", "colour", "updatedAt"], [...TAG_NAME_CLAIM]],
      "tags/delete-tag": [["tagCount"]],
    };
    for (const fn of everyFunction()) {
      const expected = (orgWriters[fn.name] ?? []).map(sorted);
      expect([fn.name, sortJson(attributeSets(fn.statements, P.org).map(sorted))]).toEqual([fn.name, sortJson(expected)]);
    }
  });

  /** Every function that may name `attribute` in a put or update of `partition`. */
  const writersOf = (partition: string, attribute: string) =>
    everyFunction()
      .filter((fn) =>
        attributeSets(fn.statements, partition).some((set) => set.includes(attribute) || set.includes("<every attribute>")),
      )
      .map((fn) => fn.name)
      .sort();

  test("what confers access is written by its owner only", () => {
    // A member's credentials and role: signup creates members, a team admin changes roles.
    expect(writersOf(P.org, "passwordHash")).toEqual(["auth/change-password", "auth/reset-password", "auth/signup"]);
    expect(writersOf(P.org, "role")).toEqual(["auth/signup", "team/update-member"]);
    expect(writersOf(P.org, "platformAdmin")).toEqual([]);
    expect(writersOf(P.org, "emailVerifiedAt")).toEqual(["auth/reset-password", "auth/signup", "auth/verify-email"]);
    // An organization's plan: a new organization's, and the platform admin's change.
    expect(writersOf(P.org, "plan")).toEqual(["admin/update-organization", "auth/signup"]);
    // An address's holder decides which account a login reaches.
    expect(writersOf(P.email, "userId")).toEqual(["auth/reset-password", "auth/signup", "auth/verify-email"]);
    // A key's permissions and the role it acts with.
    expect(writersOf(P.apiKey, "creatorRole")).toEqual(["api-keys/create-api-key", "team/remove-member", "team/update-member"]);
    expect(writersOf(P.apiKey, "permissions")).toEqual(["api-keys/create-api-key", "api-keys/update-api-key"]);
    expect(writersOf(P.apiKey, "plan")).toEqual(["admin/update-organization", "api-keys/create-api-key"]);
    expect(writersOf(P.apiKey, "revokedAt")).toEqual(["api-keys/create-api-key", "api-keys/delete-api-key"]);
    // A webhook's secret and owner, an outbound endpoint's target and signing secret.
    expect(writersOf(P.webhook, "secretHash")).toEqual(["webhooks/create-webhook", "webhooks/rotate-webhook-secret"]);
    expect(writersOf(P.webhook, "orgId")).toEqual(["webhooks/create-webhook"]);
    expect(writersOf(P.form, "url")).toEqual([
      "outbound-webhooks/create-outbound-webhook",
      "outbound-webhooks/update-outbound-webhook",
    ]);
    expect(writersOf(P.form, "signingSecret")).toEqual(["outbound-webhooks/create-outbound-webhook"]);
    // A form's notification addresses.
    expect(writersOf(P.form, "settings")).toEqual([
      "email-events/record-suppressions",
      "forms/create-form",
      "forms/duplicate-form",
      "forms/update-form",
      "intake/receive-submission",
    ]);
  });

  test("read-only routes write nothing but their API key's bookkeeping: its counter and lastUsedAt", () => {
    for (const route of routes.filter((r) => r.table === "read" && r.auth === "public")) {
      expect([route.route, grantedWrites(statementsOf(route))]).toEqual([route.route, []]);
    }
    for (const route of routes.filter((r) => r.table === "read" && r.auth !== "public")) {
      expect([route.route, sortJson(grantedWrites(statementsOf(route)))]).toEqual([
        route.route,
        [
          { actions: ["dynamodb:UpdateItem"], leadingKeys: ["APIKEY#*"], attributes: ["lastUsedAt", "pk", "sk"] },
          {
            actions: ["dynamodb:UpdateItem"],
            leadingKeys: ["COUNTER#apikey#*"],
            attributes: ["count", "pk", "sk", "ttl", "type"],
          },
        ],
      ]);
    }
  });

  test("each function updates the counters of its own scopes only", () => {
    const scopes = (statements: Statement[]) =>
      [...new Set(grantedWrites(statements).flatMap((g) => g.leadingKeys.filter((k) => k.startsWith("COUNTER#"))))].sort();
    const own: Record<string, string[]> = {
      "auth/login": ["COUNTER#login-email#*", "COUNTER#login-ip#*"],
      "auth/resend-verification": ["COUNTER#apikey#*", "COUNTER#verify-email#*"],
      "auth/reclaim-email": ["COUNTER#reclaim-email#*"],
      "auth/request-password-reset": ["COUNTER#password-reset#*", "COUNTER#password-reset-ip#*"],
      "auth/change-password": ["COUNTER#apikey#*", "COUNTER#password-change#*"],
      "auth/change-email": ["COUNTER#apikey#*", "COUNTER#change-email#*", "COUNTER#change-email-account#*"],
      "intake/receive-submission": ["COUNTER#spam-ip#*"],
    };
    for (const fn of everyFunction()) {
      const authenticated = routes.some((r) => r.handler === fn.name && r.auth !== "public");
      expect([fn.name, scopes(fn.statements)]).toEqual([fn.name, own[fn.name] ?? (authenticated ? ["COUNTER#apikey#*"] : [])]);
    }
  });

  test("intake's writes: whole submissions and markers; of shared items only the links and new fields it keeps, no count", () => {
    const intake = statementsOf(route("POST /api/v1/incoming/{webhookId}"));
    expect(sortJson(attributeSets(intake, P.webhook).map(sorted))).toEqual([["formId"]]);
    // Counts are the bookkeeper's: intake writes no day item, no form's or webhook's counts.
    const partitions = grantedWrites(intake).flatMap((g) => g.leadingKeys);
    expect(partitions).not.toContain(`${P.webhookCounts}*`);
    expect(attributeSets(intake, P.form).flat()).not.toContain("inbox");
    expect(sortJson(attributeSets(intake, P.form).map(sorted))).toEqual(sortJson([["fields", "updatedAt"], sorted(FORM_ITEM)]));
    expect(attributeSets(intake, P.org)).toEqual([["formCount"]]);
    expect(grantedWrites(intake).filter((g) => g.actions.includes("dynamodb:DeleteItem"))).toEqual([
      { actions: ["dynamodb:DeleteItem"], leadingKeys: ["DUP#*"], attributes: null },
    ]);
  });
});

test("the bookkeeper writes only counters, its checkpoints, search and filter entries, the records that follow a removed submission and forward-only strips: day items, a form's counts (those attributes only), webhooks' counts, FIND#, VIEW#, MAIL#, DELIVERY# and SUB# (a removed submission's notes and timeline) items by BatchWriteItem, a submission's values (those attributes only)", () => {
  const bookkeeper = roleStatements("Inlet bookkeeper: counts from the table stream");
  expect(sortJson(grantedWrites(bookkeeper))).toEqual(
    sortJson([
      { actions: ["dynamodb:UpdateItem"], leadingKeys: [`${P.siteDay}*`, `${P.webhookCounts}*`], attributes: null },
      {
        actions: ["dynamodb:UpdateItem"],
        leadingKeys: [`${P.form}*`],
        attributes: [
          "gone",
          "inbox",
          "pk",
          "sk",
          "spam",
          "statusContacted",
          "statusLost",
          "statusQualified",
          "statusWon",
          "type",
        ],
      },
      { actions: ["dynamodb:PutItem"], leadingKeys: [`${P.streamCheckpoint}*`], attributes: null },
      {
        actions: ["dynamodb:BatchWriteItem"],
        leadingKeys: [`${P.delivery}*`, `${P.searchEntry}*`, `${P.sentEmail}*`, `${P.submission}*`, `${P.viewEntry}*`],
        attributes: null,
      },
      {
        actions: ["dynamodb:UpdateItem"],
        leadingKeys: [`${P.submission}*`],
        attributes: ["data", "metadata", "pk", "sk", "valuesDeleted", "valuesDeletedAt"],
      },
    ]),
  );
});

describe("signup's first-account claim", () => {
  const signup = route("POST /api/v1/auth/signup");

  test("is not granted in the CDK app, which never runs the rule", () => {
    const statements = statementsOf(signup);
    expect(grantedWrites(statements).flatMap((g) => g.leadingKeys)).not.toContain("PLATFORM");
    expect(attributeSets(statements, P.org).flat()).not.toContain("platformAdmin");
    // Derived from the app's own settings: a deployment names its admins and never sets FIRST_ACCOUNT_ADMIN.
    expect(grantContextOf(settingsFromContext(app.stack))).toEqual({ firstAccountRule: false });
  });

  test("is granted where the rule runs: the PLATFORM marker and the member's platformAdmin, nothing more", () => {
    const on = grantOf(signup, { firstAccountRule: true });
    const off = grantOf(signup, { firstAccountRule: false });
    const added = declared(on).filter((d) => !declared(off).some((x) => JSON.stringify(x) === JSON.stringify(d)));
    expect(sortJson(added)).toEqual(
      sortJson([
        { action: "dynamodb:PutItem", leadingKey: "PLATFORM", attributes: null },
        { action: "dynamodb:UpdateItem", leadingKey: "ORG#*", attributes: ["pk", "platformAdmin", "sk"] },
      ]),
    );
    // The rule and so the grant: FIRST_ACCOUNT_ADMIN=true without a list of admins.
    expect(grantContextOf({ FIRST_ACCOUNT_ADMIN: "true" })).toEqual({ firstAccountRule: true });
    expect(grantContextOf({ FIRST_ACCOUNT_ADMIN: "true", PLATFORM_ADMIN_EMAILS: "ops@example.com" })).toEqual({
      firstAccountRule: false,
    });
    // Other functions gain nothing from it.
    for (const route of routes.filter((r) => r !== signup)) {
      expect(grantOf(route, { firstAccountRule: true })).toEqual(grantOf(route));
    }
  });
});
