import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { db, setDb, tableName } from "../../../lib/aws/dynamodb";
import { epochSeconds } from "../../../lib/ids";
import { receiveSubmission } from "../../../lib/intake/intake";
import { fingerprint, gatherEvidence, recordEvidence } from "../../../lib/spam/evidence";
import { DUPLICATE_WINDOW_SECONDS } from "../../../lib/spam/signals";
import { incrementWindowAndSubWindow } from "../../../lib/store/counters";
import { keys } from "../../../lib/store/keys";
import { type Account, signupOwner } from "../../support/api";
import {
  awayFromWindowEdge,
  BROWSER,
  formEncode,
  freshIp,
  type Hook,
  intakeEvent,
  lambdaContext,
  newHook,
  newSite,
  signalNames,
  storedSubmission,
  submitAndRead,
} from "../../support/spam-helpers";

/**
 * The table-backed evidence: per-IP counters (fixed windows shared by every function instance)
 * and the duplicate marker (written only with a stored submission).
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode: number; body: string }>;

let owner: Account;
let generic: Hook;
let automation: Hook;
beforeAll(async () => {
  owner = await signupOwner("spam-rate");
  const siteId = await newSite(owner);
  [generic, automation] = await Promise.all([newHook(owner, siteId, "generic"), newHook(owner, siteId, "partner_automation")]);
});

const unique = () => ({ email: `rate-${randomUUID()}@example.com`, message: "Hello" });
const ipRate = (item: Record<string, any>) =>
  (item.spam.signals as { name: string; detail: string }[]).find((s) => s.name === "ip_rate");

describe("per-IP rate (+20): more than 5 a minute or 20 an hour", () => {
  test("the 6th submission in a minute fires; the first 5 do not", async () => {
    await awayFromWindowEdge(60, 15);
    const ip = freshIp();
    for (let i = 1; i <= 5; i++) {
      expect((await submitAndRead(generic, ip, unique())).spam.signals).toEqual([]);
    }
    const sixth = await submitAndRead(generic, ip, unique());
    expect(sixth.spam.signals).toEqual([{ name: "ip_rate", score: 20, detail: "6 this minute, 6 this hour from this IP" }]);
    // Another IP is not affected.
    expect((await submitAndRead(generic, freshIp(), unique())).spam.signals).toEqual([]);
  });

  test("the 21st submission in an hour fires; the 20th does not", async () => {
    await awayFromWindowEdge(3600, 15);
    const ip = freshIp();
    // 19 earlier submissions this hour, in another minute of it: the counter as they left it.
    const now = Date.now();
    const hourStart = Math.floor(now / 3_600_000) * 3_600_000;
    const otherMinute = now - hourStart >= 60_000 ? hourStart + 1_000 : hourStart + 59 * 60_000 + 1_000;
    await Promise.all(Array.from({ length: 19 }, () => incrementWindowAndSubWindow("spam-ip", ip, 3600, 60, otherMinute)));
    const twentieth = await submitAndRead(generic, ip, unique());
    expect(twentieth.spam.signals).toEqual([]);
    const twentyFirst = await submitAndRead(generic, ip, unique());
    expect(twentyFirst.spam.signals).toEqual([
      { name: "ip_rate", score: 20, detail: "2 this minute, 21 this hour from this IP" },
    ]);
  });

  test("server-to-server sources are not counted or scored by IP", async () => {
    await awayFromWindowEdge(60, 15);
    const ip = freshIp();
    for (let i = 0; i < 7; i++) {
      expect((await submitAndRead(automation, ip, unique(), { headers: {} })).spam.signals).toEqual([]);
    }
    const counter = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.counter("spam-ip", ip, Math.floor(Date.now() / 3_600_000) * 3600) }),
    );
    expect(counter.Item).toBeUndefined();
  });

  test("the counter is shared by separate function instances and the gateway (it lives in the table)", async () => {
    // Two handler modules, each with its own module registry (its own config, DynamoDB client
    // and module state), as two Lambda instances would have; plus the local gateway's process.
    const load = async () => {
      let loaded: { handler: Handler; client: unknown } | undefined;
      await jest.isolateModulesAsync(async () => {
        const mod = (await import("../../../functions/intake/receive-submission")) as unknown as { handler: Handler };
        const store = await import("../../../lib/aws/dynamodb");
        loaded = { handler: mod.handler, client: store.db() };
      });
      if (!loaded) throw new Error("handler not loaded");
      return loaded;
    };
    const a = await load();
    const b = await load();
    expect(a.handler).not.toBe(b.handler);
    expect(a.client).not.toBe(b.client);

    await awayFromWindowEdge(60, 15);
    const ip = freshIp();
    const viaInstance = async (instance: { handler: Handler }) => {
      const result = await instance.handler(intakeEvent(generic, ip, formEncode(unique())), lambdaContext);
      expect(result.statusCode).toBe(200);
      const item = await storedSubmission(JSON.parse(result.body).submissionId);
      if (!item) throw new Error("not stored");
      return item;
    };
    const viaHttp = () => submitAndRead(generic, ip, unique());

    const first5 = [await viaInstance(a), await viaInstance(b), await viaHttp(), await viaInstance(a), await viaInstance(b)];
    for (const item of first5) expect(ipRate(item)).toBeUndefined();
    for (const item of first5) expect(item.metadata.ip).toBe(ip);

    expect(ipRate(await viaInstance(a))?.detail).toBe("6 this minute, 6 this hour from this IP");
    expect(ipRate(await viaHttp())?.detail).toBe("7 this minute, 7 this hour from this IP");
    expect(ipRate(await viaInstance(b))?.detail).toBe("8 this minute, 8 this hour from this IP");
  });
});

describe("fixed windows and the duplicate window, with a chosen clock", () => {
  // An hour well away from the wall clock, so no other request shares these windows.
  const hour = (Math.floor(Date.now() / 3_600_000) + 10) * 3_600_000;

  test("the minute count restarts each minute; the hour count keeps going", async () => {
    const ip = freshIp();
    const at = async (ms: number) => (await gatherEvidence("generic", ip, "unused", hour + ms)).ipRate;
    for (let i = 1; i <= 6; i++) expect(await at(i * 1000)).toEqual({ minute: i, hour: i });
    expect(await at(59_999)).toEqual({ minute: 7, hour: 7 });
    expect(await at(60_000)).toEqual({ minute: 1, hour: 8 });
    expect(await at(3_599_999)).toEqual({ minute: 1, hour: 9 });
    expect(await at(3_600_000)).toEqual({ minute: 1, hour: 1 });
  });

  test("the duplicate marker lasts 24 hours; a lingering expired one counts as absent", async () => {
    const ip = freshIp();
    const print = fingerprint(ip, unique());
    expect((await gatherEvidence("generic", ip, print, hour)).duplicate).toBe(false);
    await recordEvidence("generic", print, hour);
    expect(DUPLICATE_WINDOW_SECONDS).toBe(24 * 3600);
    expect((await gatherEvidence("generic", ip, print, hour + 1000)).duplicate).toBe(true);
    expect((await gatherEvidence("generic", ip, print, hour + (DUPLICATE_WINDOW_SECONDS - 1) * 1000)).duplicate).toBe(true);
    expect((await gatherEvidence("generic", ip, print, hour + DUPLICATE_WINDOW_SECONDS * 1000)).duplicate).toBe(false);
    const marker = await db().send(new GetCommand({ TableName: tableName(), Key: keys.duplicate(print) }));
    expect(marker.Item).toEqual({
      ...keys.duplicate(print),
      type: "duplicate",
      ttl: epochSeconds(hour) + DUPLICATE_WINDOW_SECONDS,
    });
  });

  test("a source without the duplicate signal writes no marker", async () => {
    const print = fingerprint(freshIp(), unique());
    await recordEvidence("partner_ads", print, hour);
    const marker = await db().send(new GetCommand({ TableName: tableName(), Key: keys.duplicate(print) }));
    expect(marker.Item).toBeUndefined();
  });
});

describe("the duplicate marker is written only with a stored submission", () => {
  test("a submission whose write failed leaves no marker: its retry is not a duplicate", async () => {
    const ip = freshIp();
    const data = unique();
    const real = db();
    // Fault injection: DynamoDB refuses the submission's put once (a throttle the sender is
    // told to retry). The rest of the table works.
    let failed = false;
    const faulty = Object.create(real) as DynamoDBDocumentClient;
    faulty.send = (async (command: { input?: { Item?: { type?: string } } }, ...rest: unknown[]) => {
      if (!failed && command.input?.Item?.type === "submission") {
        failed = true;
        throw Object.assign(new Error("Rate of requests exceeds the allowed throughput."), { name: "ThrottlingException" });
      }
      return (real.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as DynamoDBDocumentClient["send"];
    const request = {
      webhookId: generic.id,
      query: { key: generic.secretKey },
      headers: { ...BROWSER, "content-type": "application/x-www-form-urlencoded" },
      body: formEncode(data),
      isBase64Encoded: false,
      sourceIp: ip,
    };
    setDb(faulty);
    try {
      await expect(receiveSubmission(request)).rejects.toThrow("Rate of requests exceeds");
    } finally {
      setDb(real);
    }
    expect(failed).toBe(true);
    const marker = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.duplicate(fingerprint(ip, data)), ConsistentRead: true }),
    );
    expect(marker.Item).toBeUndefined();

    const retry = await receiveSubmission(request);
    expect(retry.stored).toBe(true);
    const item = await storedSubmission(retry.result.submissionId);
    expect(item?.spam.signals).toEqual([]);
    // Now it is stored, the next identical one is a duplicate.
    const third = await receiveSubmission(request);
    expect(signalNames((await storedSubmission(third.result.submissionId)) ?? {})).toEqual(["duplicate"]);
  });
});
