import { ROUTES } from "../../../functions/routes";
import { type Account, api, createSite, platformAdminToken } from "../../support/api";
import { agencyOwner, code, createKey } from "../../support/api-keys";
import { accepted, formSubmissions, intakeTarget, linkedForm, postIntake, storedSubmission } from "../../support/intake";

/**
 * Inputs that used to answer 500: each is now a 4xx, or stored as it should
 * be. The route-wide fuzz test (routes-fuzz.test.ts) keeps the whole class closed.
 */

let owner: Account;
beforeAll(async () => {
  owner = await agencyOwner("hardening");
});

describe("a wide submission is stored, and its new fields reach the form", () => {
  // 100-character names make each update clause longer than the 4 KB expression limit allows
  // for more than a few dozen fields at once.
  const wide = (n: number, prefix: string) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(3, "0")}`.padEnd(100, "x"), `v${i}`]));

  test("199 new fields at once on a webhook whose auto-created form exists", async () => {
    const t = await intakeTarget("wide", undefined, owner);
    accepted(await postIntake(t.webhook, { json: { email: "first@example.com" } }));
    const data = wide(199, "field");
    const { submissionId } = accepted(await postIntake(t.webhook, { json: data }));
    const stored = await storedSubmission(submissionId);
    expect(Object.keys(stored?.data ?? {})).toHaveLength(199);
    const form = await linkedForm(t.webhook.id);
    expect(Object.keys(form.fields)).toHaveLength(200);
    expect(form.fields[Object.keys(data)[198] as string]).toMatchObject({ required: false });
    // A retry of the same wide body is stored again (no field is left for a second update).
    accepted(await postIntake(t.webhook, { json: data }));
    expect(await formSubmissions(form.id)).toHaveLength(3);
  });

  test("long multi-byte names: the form stops growing at its schema budget, every submission is stored", async () => {
    const t = await intakeTarget("wide-bytes", undefined, owner);
    // 100 four-byte characters per name: 200 new fields are ~170 KB of schema each time.
    const emoji = (n: number, tag: string) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${tag}${String(i).padStart(3, "0")}`.padEnd(100 - 4, "😀"), "v"]));
    const posts = [emoji(200, "a"), emoji(200, "b"), emoji(200, "c")];
    for (const data of posts) {
      const { submissionId } = accepted(await postIntake(t.webhook, { json: data }));
      expect(Object.keys((await storedSubmission(submissionId))?.data ?? {})).toHaveLength(200);
    }
    const form = await linkedForm(t.webhook.id);
    const schemaBytes = Buffer.byteLength(JSON.stringify(form.fields));
    expect(schemaBytes).toBeLessThanOrEqual(256 * 1024);
    expect(Object.keys(form.fields).length).toBeGreaterThan(200);
    expect(Object.keys(form.fields).length).toBeLessThan(600);
  });

  test("200 fields in the very first submission create the form with all of them", async () => {
    const t = await intakeTarget("wide-first", undefined, owner);
    accepted(await postIntake(t.webhook, { form: wide(200, "first") }));
    expect(Object.keys((await linkedForm(t.webhook.id)).fields)).toHaveLength(200);
  });
});

describe("crafted list cursors are 400 INVALID_CURSOR", () => {
  const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString("base64url");

  test("on the site list, the team list and the platform admin's organization list", async () => {
    await createSite(owner, "cursor site");
    const admin = await platformAdminToken();
    const lists = [
      { path: "/api/v1/sites", token: owner.token, partition: `ORG#${owner.orgId}`, prefix: "SITE#", index: false },
      { path: "/api/v1/team", token: owner.token, partition: `ORG#${owner.orgId}`, prefix: "USER#", index: false },
      { path: "/api/v1/admin/organizations", token: admin, partition: "ORGS", prefix: "", index: true },
    ];
    for (const list of lists) {
      const base = list.index
        ? { pk: `ORG#${owner.orgId}`, sk: "META", gsi1pk: list.partition, gsi1sk: "2026-01-01T00:00:00.000Z#org_x" }
        : { pk: list.partition, sk: `${list.prefix}x` };
      const skName = list.index ? "gsi1sk" : "sk";
      const crafted = [
        { ...base, [skName]: undefined },
        { ...base, [skName]: "" },
        // Over DynamoDB's 1,024-byte sort key, inside the 2,048-character cursor; then a foreign partition.
        { ...base, [skName]: "é".repeat(520) },
        ...(list.index ? [] : [{ ...base, pk: "€".repeat(10) }]),
        { ...base, extra: "x" },
        ...(list.index ? [{ gsi1pk: base.gsi1pk, gsi1sk: (base as { gsi1sk: string }).gsi1sk }] : [{ ...base, sk: "OTHER#x" }]),
        [base],
        "text",
      ];
      for (const key of crafted) {
        const res = await api("GET", `${list.path}?cursor=${cursor(key)}`, { token: list.token });
        expect([list.path, key, res.status, code(res)]).toEqual([list.path, key, 400, "INVALID_CURSOR"]);
      }
      // A real cursor still pages.
      const first = await api("GET", `${list.path}?limit=1`, { token: list.token });
      expect(first.status).toBe(200);
      if (first.body.pagination?.nextCursor ?? first.body.data?.nextCursor) {
        const next = first.body.pagination?.nextCursor ?? first.body.data?.nextCursor;
        expect((await api("GET", `${list.path}?limit=1&cursor=${next}`, { token: list.token })).status).toBe(200);
      }
    }
  });
});

describe("over-long and malformed ids in paths are 404, on every route that takes one", () => {
  // The CORS preflight is a constant 204 for any path and reads nothing, so it is not among them.
  const withParams = ROUTES.filter((r) => r.route.includes("{") && !r.route.startsWith("OPTIONS "));
  const ids = ["x".repeat(3000), "é".repeat(40), "a.b", `${"wh_".padEnd(65, "A")}`];

  let apiKey: Promise<string> | undefined;
  /** Credentials that pass the route's authentication, so the id itself is what is judged. */
  const credentialsFor = async (def: (typeof withParams)[number]): Promise<(string | undefined)[]> => {
    if (def.auth === "public") return [undefined];
    if ("platformAdmin" in def) return [await platformAdminToken()];
    if (def.auth === "session") return [owner.token];
    apiKey ??= createKey(owner).then((key) => key.secretKey);
    return [owner.token, await apiKey];
  };

  test.each(withParams.map((r) => [r.route, r] as const))("%s", async (_key, def) => {
    const [method, template] = def.route.split(" ") as [string, string];
    for (const token of await credentialsFor(def)) {
      for (const id of ids) {
        const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(id));
        const res = await api(method, path, { ...(token ? { token } : {}), ...(method === "GET" ? {} : { body: {} }) });
        expect([id.slice(0, 20), res.status, code(res)]).toEqual([id.slice(0, 20), 404, "NOT_FOUND"]);
      }
    }
  });
});

describe("slow inputs: values crafted against backtracking patterns", () => {
  // "a@a.a.a.…a@": a domain of 5,000 dots that never ends as an address must, the input that
  // made the email pattern quadratic (about 80 ms per value on this machine).
  const crafted = `a@${"a.".repeat(4998)}a@`;

  test("an intake of 20 such 10,000-character values answers within a second", async () => {
    expect(crafted).toHaveLength(10_000);
    const t = await intakeTarget("slow", undefined, owner);
    accepted(await postIntake(t.webhook, { json: { email: "first@example.com" } }));
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`email${i}`, crafted]));
    const started = performance.now();
    const res = await postIntake(t.webhook, { json: body });
    const took = performance.now() - started;
    accepted(res);
    expect(took).toBeLessThan(1000);
  });
});
