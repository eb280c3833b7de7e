import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { REFERENCE_BLOCKS } from "../../../lib/intake/reference-numbers";
import { keys } from "../../../lib/store/keys";
import { type Account, api, signupOwner } from "../../support/api";
import {
  accepted,
  adsLead,
  expectStatus,
  type IntakeTarget,
  intakeTarget,
  postIntake,
  siblingWebhook,
  type TestWebhook,
  updateSite,
  updateWebhook,
} from "../../support/intake";
import { type GatewayProcess, startGatewayProcess } from "./support/gateway-process";

/**
 * Warm intake instances, each a gateway process of its own on the test stack's table (its own
 * module state, as a Lambda instance has): reference numbers reserved in blocks per instance
 * (lib/intake/reference-numbers.ts) and the configuration each keeps for INTAKE_CACHE_SECONDS
 * (lib/intake/intake-config.ts). The test stack's own gateway keeps nothing (INTAKE_CACHE_SECONDS=0).
 */
const CACHE_SECONDS = 5;

let owner: Account;
let instances: GatewayProcess[] = [];
beforeAll(async () => {
  owner = await signupOwner("intake-instances");
  instances = await Promise.all([startGatewayProcess(CACHE_SECONDS), startGatewayProcess(CACHE_SECONDS)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
});

const numberOf = (referenceId: string) => Number(referenceId.split("-").at(-1));

/** The site's sequence item: the last number any instance reserved. */
async function sequenceOf(siteId: string): Promise<number> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSequence(siteId), ConsistentRead: true }));
  return Number(out.Item?.seq ?? 0);
}

const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  referer: "https://example.com/",
};

describe("reference numbers in blocks per instance", () => {
  test("several instances posting at once to one site: every number unique, each instance's in order, few left unused", async () => {
    const first = await intakeTarget("blocks", { name: "Contact" }, owner);
    const second = await siblingWebhook(first, { name: "Quote" });
    const hooks: TestWebhook[] = [first.webhook, second.webhook];
    // Both forms exist before the race (a first submission creates its form).
    for (const hook of hooks) accepted(await postIntake(hook, { json: { email: "warm@example.com" }, headers: BROWSER }));
    const bases = [...instances.map((i) => i.url), undefined];
    const perInstance = 25;
    // Each instance takes one request at a time, as a Lambda instance does; the three run side by side.
    const numbers = await Promise.all(
      bases.map(async (base, b) => {
        const got: number[] = [];
        for (let i = 0; i < perInstance; i++) {
          const res = await postIntake(hooks[i % 2] as TestWebhook, {
            json: { email: `i${b}-${i}@example.com`, message: `instance ${b} post ${i}` },
            headers: BROWSER,
            ...(base ? { base } : {}),
          });
          got.push(numberOf(accepted(res).referenceId));
        }
        return got;
      }),
    );
    const all = numbers.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const got of numbers) expect(got).toEqual([...got].sort((a, b) => a - b));
    // The warm-ups took 1 and 2; every number handed out since is one the sequence reserved.
    const reserved = await sequenceOf(first.siteId);
    expect(Math.min(...all)).toBeGreaterThan(2);
    expect(Math.max(...all)).toBeLessThanOrEqual(reserved);
    // What is left unused is at most the rest of each instance's last block.
    expect(reserved - (all.length + 2)).toBeLessThanOrEqual(bases.length * (REFERENCE_BLOCKS.max - 1));
  }, 120_000);

  test("a repeated Idempotency-Key and a repeated lead_id take no number: the next submission gets the next one", async () => {
    const base = (instances[0] as GatewayProcess).url;
    const form = await intakeTarget("repeats", { name: "Contact" }, owner);
    const ads = await siblingWebhook(form, { name: "Lead form", source: "partner_ads" });
    const post = (hook: TestWebhook, options: Parameters<typeof postIntake>[1]) => postIntake(hook, { ...options, base });
    const numbers: number[] = [];

    // The instance's first number for the site (a block of one), then a repeat while it holds none.
    const keyed = { json: { email: "k@example.com" }, headers: { ...BROWSER, "idempotency-key": "order-1" } };
    const firstKeyed = accepted(await post(form.webhook, keyed));
    numbers.push(numberOf(firstKeyed.referenceId));
    const before = await sequenceOf(form.siteId);
    expect(accepted(await post(form.webhook, keyed))).toEqual(firstKeyed);
    expect(await sequenceOf(form.siteId)).toBe(before);

    // A lead, then its repeat while the instance holds a number: the repeat must not take it.
    const lead = { ...adsLead(), google_key: ads.webhook.secretKey };
    const firstLead = accepted(await post(ads.webhook, { json: lead, key: null }));
    numbers.push(numberOf(firstLead.referenceId));
    const held = await sequenceOf(form.siteId);
    expect(accepted(await post(ads.webhook, { json: lead, key: null }))).toEqual(firstLead);
    expect(await sequenceOf(form.siteId)).toBe(held);

    numbers.push(
      numberOf(accepted(await post(form.webhook, { json: { email: "next@example.com" }, headers: BROWSER })).referenceId),
    );
    expect(numbers).toEqual([1, 2, 3]);
  }, 60_000);
});

describe("the configuration a warm instance keeps", () => {
  /** Posts to the instance until it refuses; when it did, measured from `since`. */
  async function refusedWithin(
    base: string,
    hook: TestWebhook,
    since: number,
    refused: (status: number) => boolean,
  ): Promise<{ acceptedAfterChange: number; refusedAfterMs: number }> {
    let acceptedAfterChange = 0;
    for (;;) {
      const res = await postIntake(hook, { json: { email: `poll-${Date.now()}@example.com` }, headers: BROWSER, base });
      if (refused(res.status)) return { acceptedAfterChange, refusedAfterMs: Date.now() - since };
      expectStatus(res, 200);
      acceptedAfterChange++;
      if (Date.now() - since > (CACHE_SECONDS + 10) * 1000) throw new Error("still accepted long after the cache's time");
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Makes the instance read and keep the webhook's configuration; answers when the read started. */
  async function prime(base: string, target: IntakeTarget): Promise<number> {
    accepted(await postIntake(target.webhook, { json: { email: "first@example.com" }, headers: BROWSER }));
    const readFrom = Date.now();
    accepted(await postIntake(target.webhook, { json: { email: "prime@example.com" }, headers: BROWSER, base }));
    return readFrom;
  }

  // A refusal may come late by the time one polling request takes on a loaded machine.
  const SLACK_MS = 2_000;

  test("a disabled webhook and a deactivated site are refused once the instance's copy is older than INTAKE_CACHE_SECONDS", async () => {
    const base = (instances[1] as GatewayProcess).url;
    const [disabled, inactive] = await Promise.all([
      intakeTarget("cache-disabled", { name: "Contact" }, owner),
      intakeTarget("cache-inactive", { name: "Contact" }, owner),
    ]);
    const [disabledRead, inactiveRead] = await Promise.all([prime(base, disabled), prime(base, inactive)]);
    await Promise.all([updateWebhook(disabled, { isEnabled: false }), updateSite(owner, inactive.siteId, { isActive: false })]);
    // An instance that keeps nothing (the test stack's gateway) refuses at once.
    expectStatus(
      await postIntake(disabled.webhook, { json: { email: "x@example.com" }, headers: BROWSER }),
      403,
      "WEBHOOK_DISABLED",
    );
    expectStatus(
      await postIntake(inactive.webhook, { json: { email: "x@example.com" }, headers: BROWSER }),
      403,
      "SITE_INACTIVE",
    );
    const [w, s] = await Promise.all([
      refusedWithin(base, disabled.webhook, disabledRead, (status) => status === 403),
      refusedWithin(base, inactive.webhook, inactiveRead, (status) => status === 403),
    ]);
    // The kept copy still accepted right after the change (the documented price), then stopped.
    expect(w.acceptedAfterChange).toBeGreaterThan(0);
    expect(s.acceptedAfterChange).toBeGreaterThan(0);
    expect(w.refusedAfterMs).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
    expect(s.refusedAfterMs).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
    expectStatus(
      await postIntake(disabled.webhook, { json: { email: "y@example.com" }, headers: BROWSER, base }),
      403,
      "WEBHOOK_DISABLED",
    );
    expectStatus(
      await postIntake(inactive.webhook, { json: { email: "y@example.com" }, headers: BROWSER, base }),
      403,
      "SITE_INACTIVE",
    );
  }, 60_000);

  test("a rotated secret: the old one works on an instance that kept it until the new one is used there or the copy expires", async () => {
    const base = (instances[1] as GatewayProcess).url;
    const [used, unused] = await Promise.all([
      intakeTarget("cache-rotated", { name: "Contact" }, owner),
      intakeTarget("cache-rotated-idle", { name: "Contact" }, owner),
    ]);
    const [, unusedRead] = await Promise.all([prime(base, used), prime(base, unused)]);
    const rotate = async (target: IntakeTarget): Promise<TestWebhook> => {
      const rotated = await api("POST", `/api/v1/sites/${target.siteId}/webhooks/${target.webhook.id}/rotate-secret`, {
        token: owner.token,
      });
      expect(rotated.status).toBe(200);
      return { id: target.webhook.id, secretKey: rotated.body.data.secretKey };
    };
    const [fresh] = await Promise.all([rotate(used), rotate(unused)]);
    const post = (hook: TestWebhook) =>
      postIntake(hook, { json: { email: `r-${Date.now()}@example.com` }, headers: BROWSER, base });
    // The kept copy still knows only the old secret...
    accepted(await post(used.webhook));
    // ...and would refuse the new one; the cache never refuses: the webhook is read again, and kept.
    accepted(await post(fresh as TestWebhook));
    expectStatus(await post(used.webhook), 401, "WEBHOOK_KEY_INVALID");
    // Where the new secret is not used, the old one stops when the copy expires.
    const old = await refusedWithin(base, unused.webhook, unusedRead, (status) => status === 401);
    expect(old.acceptedAfterChange).toBeGreaterThan(0);
    expect(old.refusedAfterMs).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
  }, 60_000);
});
