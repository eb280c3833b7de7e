import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, jest } from "@jest/globals";
import { createApiKey } from "../../../lib/api-keys";
import { apiKeyIdFromHash, resolveApiKey } from "../../../lib/auth/api-key-auth";
import type { SessionPrincipal } from "../../../lib/auth/principal";
import { effectiveRateLimit } from "../../../lib/auth/rate-limit";
import { resolveSession } from "../../../lib/auth/sessions";
import { newToken } from "../../../lib/auth/tokens";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { isId, sha256Hex } from "../../../lib/ids";
import {
  deleteRevokedApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeysPlan,
  updateApiKey,
} from "../../../lib/store/api-keys";
import { keys } from "../../../lib/store/keys";
import { TRANSACTION_ATTEMPTS } from "../../../lib/store/transactions";
import { addMember, setPlan, signupOwner } from "../../support/api";

type Send = (command: unknown) => Promise<unknown>;

/** DynamoDB's answer to a transaction that collided with another write (DynamoDB Local never gives it). */
function transactionConflict(items = 2): Error {
  return Object.assign(new Error("Transaction cancelled, please refer cancellation reasons for specific reasons"), {
    name: "TransactionCanceledException",
    CancellationReasons: Array.from({ length: items }, (_, i) =>
      i === 0 ? { Code: "TransactionConflict", Message: "Transaction is ongoing for the item" } : { Code: "None" },
    ),
  });
}

/** Wraps the process's client: `fault` may throw for a command, everything else reaches DynamoDB Local. */
function injectFaults(fault: (command: unknown) => void) {
  const client = db();
  const real = client.send.bind(client) as Send;
  return jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
    fault(command);
    return real(command);
  }) as never);
}

afterEach(() => {
  jest.restoreAllMocks();
});

async function agencyPrincipal(label: string): Promise<SessionPrincipal> {
  const owner = await signupOwner(label);
  await setPlan(owner.orgId, "agency");
  return resolveSession(owner.token);
}

const orgCount = async (orgId: string) => {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.organization(orgId), ConsistentRead: true }));
  return out.Item?.apiKeyCount as number | undefined;
};

describe("key ids", () => {
  test("are derived from the secret's hash, in the key_ id format", () => {
    const secret = newToken("apiKey");
    const id = apiKeyIdFromHash(sha256Hex(secret));
    expect(isId("apiKey", id)).toBe(true);
    expect(apiKeyIdFromHash(sha256Hex(secret))).toBe(id);
    expect(apiKeyIdFromHash(sha256Hex(newToken("apiKey")))).not.toBe(id);
    expect(apiKeyIdFromHash("0".repeat(64))).toBe(`key_${"0".repeat(22)}`);
  });

  test("the effective limit is the plan's, lowered by the key's own", () => {
    expect(effectiveRateLimit("agency", null)).toBe(300);
    expect(effectiveRateLimit("enterprise", null)).toBe(600);
    expect(effectiveRateLimit("enterprise", 450)).toBe(450);
    // A limit set on Enterprise never exceeds Agency's after a downgrade.
    expect(effectiveRateLimit("agency", 450)).toBe(300);
    expect(effectiveRateLimit("pro", 10)).toBeUndefined();
  });
});

describe("transaction conflicts (injected: DynamoDB Local never raises them)", () => {
  test("a create that meets conflicts is retried until it goes through, and counts once", async () => {
    const principal = await agencyPrincipal("conflict-create");
    let conflicts = 0;
    const send = injectFaults((command) => {
      if (command instanceof TransactWriteCommand && conflicts < 2) {
        conflicts++;
        throw transactionConflict();
      }
    });
    const { key } = await createApiKey(principal, { name: "retried" }, "127.0.0.1");
    const transactions = send.mock.calls.filter(([c]) => c instanceof TransactWriteCommand);
    expect(transactions).toHaveLength(3);
    expect(await getApiKey(key.id)).toMatchObject({ id: key.id, orgId: principal.orgId, plan: "agency" });
    expect(await orgCount(principal.orgId)).toBe(1);
  });

  test("conflicts that outlast the retries become 409 CONFLICT, and nothing is written", async () => {
    const principal = await agencyPrincipal("conflict-forever");
    const send = injectFaults((command) => {
      if (command instanceof TransactWriteCommand) throw transactionConflict();
    });
    await expect(createApiKey(principal, { name: "never" }, "127.0.0.1")).rejects.toMatchObject({
      code: "CONFLICT",
      status: 409,
    });
    expect(send.mock.calls.filter(([c]) => c instanceof TransactWriteCommand)).toHaveLength(TRANSACTION_ATTEMPTS);
    jest.restoreAllMocks();
    expect(await listApiKeys(principal.orgId)).toEqual([]);
    expect(await orgCount(principal.orgId)).toBeUndefined();
  });

  test("a failed condition is not a conflict: it is answered at once, without retries", async () => {
    const principal = await agencyPrincipal("no-retry");
    const { key } = await createApiKey(principal, { name: "active" }, "127.0.0.1");
    const send = injectFaults(() => undefined);
    expect(await deleteRevokedApiKey(principal.orgId, key.id)).toBe("NOT_REVOKED");
    expect(send.mock.calls.filter(([c]) => c instanceof TransactWriteCommand)).toHaveLength(1);
  });

  test("a permanent delete that meets a conflict is retried and frees the slot once", async () => {
    const principal = await agencyPrincipal("conflict-delete");
    const { key } = await createApiKey(principal, { name: "doomed" }, "127.0.0.1");
    expect(await revokeApiKey(principal.orgId, key.id, new Date().toISOString())).toBe("REVOKED");
    let conflicted = false;
    injectFaults((command) => {
      if (command instanceof TransactWriteCommand && !conflicted) {
        conflicted = true;
        throw transactionConflict();
      }
    });
    expect(await deleteRevokedApiKey(principal.orgId, key.id)).toBe("DELETED");
    expect(conflicted).toBe(true);
    expect(await getApiKey(key.id)).toBeUndefined();
    expect(await orgCount(principal.orgId)).toBe(0);
  });
});

describe("creating a key while the plan changes", () => {
  test("the key carries the organization's plan at the moment it is stored", async () => {
    const principal = await agencyPrincipal("plan-race");
    // The session was read on Agency; the organization moved to Enterprise since.
    await setPlan(principal.orgId, "enterprise");
    const { key } = await createApiKey(principal, { name: "raced" }, "127.0.0.1");
    expect(key.rateLimitPerMin).toBe(600);
    expect((await getApiKey(key.id))?.plan).toBe("enterprise");
    // ...and to Pro: no key.
    await setPlan(principal.orgId, "pro");
    await expect(createApiKey(principal, { name: "too late" }, "127.0.0.1")).rejects.toMatchObject({ code: "PLAN_REQUIRED" });
    expect(await orgCount(principal.orgId)).toBe(1);
  });

  test("a plan change finds keys the index does not list yet (injected index lag)", async () => {
    const principal = await agencyPrincipal("index-lag");
    const a = await createApiKey(principal, { name: "a" }, "127.0.0.1");
    const b = await createApiKey(principal, { name: "b" }, "127.0.0.1");
    let lagged = false;
    const client = db();
    const real = client.send.bind(client) as Send;
    jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
      const out = (await real(command)) as { Items?: Record<string, unknown>[] };
      if (command instanceof QueryCommand && !lagged) {
        lagged = true;
        return { ...out, Items: (out.Items ?? []).slice(1) };
      }
      return out;
    }) as never);
    await setApiKeysPlan(principal.orgId, "enterprise", 2);
    expect(lagged).toBe(true);
    expect((await getApiKey(a.key.id))?.plan).toBe("enterprise");
    expect((await getApiKey(b.key.id))?.plan).toBe("enterprise");
  });
});

describe("authenticating a key (injected clock)", () => {
  const minute = Date.UTC(2031, 4, 6, 7, 8, 0);

  test("the window's edges: the limit holds to its last millisecond and resets at its end", async () => {
    const principal = await agencyPrincipal("window-edges");
    const { key } = await createApiKey(principal, { name: "edges" }, "127.0.0.1");
    await updateApiKey(principal.orgId, key.id, { customRateLimit: 2 }, new Date().toISOString());
    const at = (ms: number) => resolveApiKey(key.secretKey, minute + ms);

    expect((await at(0)).responseHeaders["x-ratelimit-remaining"]).toBe("1");
    expect((await at(30_000)).responseHeaders["x-ratelimit-remaining"]).toBe("0");
    await expect(at(30_500)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      headers: expect.objectContaining({ "retry-after": "30", "x-ratelimit-remaining": "0" }),
    });
    await expect(at(59_999)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: expect.objectContaining({ "retry-after": "1" }),
    });
    const next = await at(60_000);
    expect(next.responseHeaders).toEqual({
      "x-ratelimit-limit": "2",
      "x-ratelimit-remaining": "1",
      "x-ratelimit-reset": String(minute / 1000 + 120),
    });
  });

  test("lastUsedAt is written by the first request of each window only", async () => {
    const principal = await agencyPrincipal("last-used-lib");
    const { key } = await createApiKey(principal, { name: "touch" }, "127.0.0.1");
    const updates = injectFaults(() => undefined);
    const touches = () =>
      updates.mock.calls.filter(([c]) => c instanceof UpdateCommand && c.input.UpdateExpression === "SET lastUsedAt = :now")
        .length;

    // The write runs beside the request; the handler chain awaits `pending` before responding.
    const first = await resolveApiKey(key.secretKey, minute + 5_000);
    expect(first.pending).toBeDefined();
    await first.pending;
    expect((await getApiKey(key.id))?.lastUsedAt).toBe(new Date(minute + 5_000).toISOString());
    expect((await resolveApiKey(key.secretKey, minute + 40_000)).pending).toBeUndefined();
    await resolveApiKey(key.secretKey, minute + 50_000);
    expect(touches()).toBe(1);
    expect((await getApiKey(key.id))?.lastUsedAt).toBe(new Date(minute + 5_000).toISOString());
    await (await resolveApiKey(key.secretKey, minute + 61_000)).pending;
    expect(touches()).toBe(2);
    expect((await getApiKey(key.id))?.lastUsedAt).toBe(new Date(minute + 61_000).toISOString());
  });

  test("a failing lastUsedAt write never fails the request", async () => {
    const principal = await agencyPrincipal("touch-fails");
    const { key } = await createApiKey(principal, { name: "unlucky" }, "127.0.0.1");
    jest.spyOn(console, "error").mockImplementation(() => undefined);
    injectFaults((command) => {
      if (command instanceof UpdateCommand && command.input.UpdateExpression === "SET lastUsedAt = :now") {
        throw Object.assign(new Error("Throughput exceeded"), { name: "ProvisionedThroughputExceededException" });
      }
    });
    const principalOfKey = await resolveApiKey(key.secretKey, minute + 1_000);
    await principalOfKey.pending;
    expect(principalOfKey).toMatchObject({ kind: "apiKey", keyId: key.id, orgId: principal.orgId, plan: "agency" });
    expect((await getApiKey(key.id))?.lastUsedAt).toBeNull();
  });

  test("a key is found by its secret only: the stored hash is compared", async () => {
    const principal = await agencyPrincipal("hash-compare");
    const { key } = await createApiKey(principal, { name: "real" }, "127.0.0.1");
    // An item under the key's id whose hash is another secret's does not authenticate this one.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(key.id),
        UpdateExpression: "SET keyHash = :other",
        ExpressionAttributeValues: { ":other": sha256Hex(newToken("apiKey")) },
      }),
    );
    await expect(resolveApiKey(key.secretKey)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("a key created while its creator's role changes", () => {
  test("is refused (409 CONFLICT) when the creator's role is no longer the one the request saw; nothing is stored", async () => {
    const owner = await signupOwner("role-race");
    await setPlan(owner.orgId, "agency");
    const admin = await addMember(owner, "admin", "racer");
    // The request authenticated as admin...
    const principal = await resolveSession(admin.token);
    // ...and the demotion lands before its key is written.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.member(owner.orgId, admin.userId),
        UpdateExpression: "SET #role = :member",
        ExpressionAttributeNames: { "#role": "role" },
        ExpressionAttributeValues: { ":member": "member" },
      }),
    );
    await expect(createApiKey(principal, { name: "stale role" }, "127.0.0.1")).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await listApiKeys(owner.orgId)).filter((k) => k.name === "stale role")).toEqual([]);
    // With the role as it is now, the key is created and carries it.
    const fresh = await resolveSession(admin.token);
    const created = await createApiKey(fresh, { name: "fresh role" }, "127.0.0.1");
    expect((await getApiKey(created.key.id))?.creatorRole).toBe("member");
  });
});
