import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { addMember, api } from "../../support/api";
import { agencyOwner, code, createKey } from "../../support/api-keys";
import { rawItem } from "../pipeline/support/emails";

/** A key dies with its creator's access, so a member who leaves keeps no way in (docs/api.md, "API keys"). */

const createSiteWith = (secret: string) => api("POST", "/api/v1/sites", { token: secret, body: { name: "By key" } });
const listSitesWith = (secret: string) => api("GET", "/api/v1/sites", { token: secret });

describe("a key's permissions follow its creator's role", () => {
  test("demoting the creator takes the key's admin-only permissions away at once; promoting gives them back", async () => {
    const owner = await agencyOwner("creator-role");
    const admin = await addMember(owner, "admin");
    const key = await createKey(admin, { name: "admin's key" });
    expect(key.permissions).toContain("sites.create");
    expect((await createSiteWith(key.secretKey)).status).toBe(201);

    const demote = await api("PUT", `/api/v1/team/members/${admin.userId}`, { token: owner.token, body: { role: "member" } });
    expect(demote.status).toBe(200);
    const refused = await createSiteWith(key.secretKey);
    expect([refused.status, code(refused)]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    // What a member may do still works, and the key's own permission list is unchanged.
    expect((await listSitesWith(key.secretKey)).status).toBe(200);
    const listed = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(listed.body.data.key).toMatchObject({ permissions: key.permissions, isOrphaned: false });

    await api("PUT", `/api/v1/team/members/${admin.userId}`, { token: owner.token, body: { role: "admin" } });
    expect((await createSiteWith(key.secretKey)).status).toBe(201);
  });

  test("removing the creator orphans their keys: 401 API_KEY_ORPHANED, marked in the list; other keys work", async () => {
    const owner = await agencyOwner("creator-gone");
    const admin = await addMember(owner, "admin", "leaver");
    const [first, second] = [await createKey(admin, { name: "one" }), await createKey(admin, { name: "two" })];
    const ownersKey = await createKey(owner, { name: "owner's" });

    const removed = await api("DELETE", `/api/v1/team/members/${admin.userId}`, { token: owner.token });
    expect(removed.status).toBe(200);
    for (const key of [first, second]) {
      const res = await listSitesWith(key.secretKey);
      expect([res.status, code(res)]).toEqual([401, "API_KEY_ORPHANED"]);
    }
    expect((await listSitesWith(ownersKey.secretKey)).status).toBe(200);
    const list = await api("GET", "/api/v1/api-keys", { token: owner.token });
    const byId = new Map((list.body.data.keys as { id: string; isOrphaned: boolean }[]).map((k) => [k.id, k.isOrphaned]));
    expect([byId.get(first.id), byId.get(second.id), byId.get(ownersKey.id)]).toEqual([true, true, false]);
    // An orphaned key can still be revoked and deleted by the owner.
    expect((await api("DELETE", `/api/v1/api-keys/${first.id}`, { token: owner.token })).status).toBe(200);
  });

  test("a key stored before keys carried their creator's role acts with the creator's current role, read on each use; authentication never writes it", async () => {
    const owner = await agencyOwner("legacy-key");
    const member = await addMember(owner, "admin", "legacy");
    const key = await createKey(member, { name: "legacy" });
    const forget = () =>
      db().send(new UpdateCommand({ TableName: tableName(), Key: keys.apiKey(key.id), UpdateExpression: "REMOVE creatorRole" }));
    await forget();
    expect((await createSiteWith(key.secretKey)).status).toBe(201);
    // No authenticated function may set a key's creatorRole (docs/deployment.md, "Least privilege").
    expect((await rawItem(keys.apiKey(key.id)))?.creatorRole).toBeUndefined();
    // The creator's demotion applies to the legacy key at once, and writes the role onto it.
    await api("PUT", `/api/v1/team/members/${member.userId}`, { token: owner.token, body: { role: "member" } });
    expect((await rawItem(keys.apiKey(key.id)))?.creatorRole).toBe("member");
    await forget();
    const refused = await createSiteWith(key.secretKey);
    expect([refused.status, code(refused)]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect((await listSitesWith(key.secretKey)).status).toBe(200);
    // Removed: the legacy key is orphaned.
    await forget();
    expect((await api("DELETE", `/api/v1/team/members/${member.userId}`, { token: owner.token })).status).toBe(200);
    await forget();
    const orphaned = await listSitesWith(key.secretKey);
    expect([orphaned.status, code(orphaned)]).toEqual([401, "API_KEY_ORPHANED"]);
  });
});
