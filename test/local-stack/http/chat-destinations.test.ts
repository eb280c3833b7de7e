import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";

/**
 * Chat destinations through the outbound endpoints API (docs/api.md, "Outbound webhooks and chat
 * destinations"): the URL rule of each kind, the chat options, the masked URL. The test stack
 * allows private targets, so a loopback URL stands in for each platform; any other host must be
 * the platform's own.
 */

const base = (formId: string) => `/api/v1/forms/${formId}/outbound-webhooks`;

describe("chat destination management", () => {
  let owner: Account;
  let formId: string;
  beforeAll(async () => {
    owner = await signupOwner("chat-api");
    formId = (await insertForm(owner, await createSite(owner))).id;
  });

  const post = (body: Record<string, unknown>) => api("POST", base(formId), { token: owner.token, body });

  test.each([
    ["slack", "https://hooks.slack.com.evil.example/services/T0/B0/x", "A Slack destination URL must be on hooks.slack.com"],
    ["slack", "https://example.com/services/T0/B0/x", "A Slack destination URL must be on hooks.slack.com"],
    [
      "teams",
      "https://acme.webhook.office.com/webhookb2/x/IncomingWebhook/y/z",
      "Office 365 connector URL, which Microsoft retired",
    ],
    ["discord", "https://discordapp.com/api/webhooks/1/abc", "A Discord destination URL must be on discord.com"],
    ["google_chat", "https://chat.googleapis.com/v1/spaces/AAAA/messages", "space webhook URL"],
    ["google_chat", "http://10.0.0.1/v1/spaces/AAAA/messages?key=k&token=t", "must be an https URL"],
  ])("a %s destination at %s is 400 DESTINATION_URL_NOT_ALLOWED, saying why", async (kind, url, words) => {
    const res = await post({ kind, url });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("DESTINATION_URL_NOT_ALLOWED");
    expect(res.body.error.message).toContain(words);
    expect(res.body.error.details).toEqual([{ path: "url", message: res.body.error.message }]);
  });

  test("the platform's own host still passes the SSRF guard at creation (here: it cannot be resolved)", async () => {
    const res = await post({ kind: "slack", url: "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXX" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED");
  });

  test("a destination: no signing secret, its URL masked in every answer and stored whole; chat options default and change", async () => {
    const url = "http://127.0.0.1:9/slack/T0/B0/secret-token-9f3k";
    const res = await post({ kind: "slack", url, description: "#sales", chat: { minGrade: "hot" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^ep_/),
      formId,
      kind: "slack",
      url: "http://127.0.0.1:9/…9f3k",
      description: "#sales",
      isEnabled: true,
      signingSecret: null,
      chat: { minGrade: "hot", includeFieldValues: true, maxFields: 10 },
      events: ["submission.created"],
      createdAt: expect.any(String),
    });
    const id = res.body.data.id as string;
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.outboundEndpoint(formId, id) }));
    expect(stored.Item).toMatchObject({ kind: "slack", url, signingSecret: null });

    const list = await api("GET", base(formId), { token: owner.token });
    expect(list.text).not.toContain("secret-token");
    const put = await api("PUT", `${base(formId)}/${id}`, {
      token: owner.token,
      body: { chat: { includeFieldValues: false, maxFields: 3 } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      kind: "slack",
      url: "http://127.0.0.1:9/…9f3k",
      chat: { minGrade: "hot", includeFieldValues: false, maxFields: 3 },
    });
    expect(put.text).not.toContain("secret-token");
    const cleared = await api("PUT", `${base(formId)}/${id}`, { token: owner.token, body: { chat: { minGrade: null } } });
    expect(cleared.body.data.chat).toEqual({ minGrade: null, includeFieldValues: false, maxFields: 3 });
    const subscribed = await api("PUT", `${base(formId)}/${id}`, {
      token: owner.token,
      body: { events: ["submission.created", "submission.updated"] },
    });
    expect(subscribed.body.data).toMatchObject({
      events: ["submission.created", "submission.updated"],
      chat: { minGrade: null, includeFieldValues: false, maxFields: 3 },
    });
    const moved = await api("PUT", `${base(formId)}/${id}`, { token: owner.token, body: { url: "https://example.com/x" } });
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe("DESTINATION_URL_NOT_ALLOWED");
    expect((await api("DELETE", `${base(formId)}/${id}`, { token: owner.token })).status).toBe(200);
  });

  test.each([
    [{ kind: "webhook", url: "http://127.0.0.1:9/x", chat: { maxFields: 3 } }, "chat"],
    [{ kind: "slack", url: "http://127.0.0.1:9/x", chat: { maxFields: 26 } }, "chat.maxFields"],
    [{ kind: "slack", url: "http://127.0.0.1:9/x", chat: { minGrade: "cold" } }, "chat.minGrade"],
    [{ kind: "slack", url: "http://127.0.0.1:9/x", chat: { mention: "@here" } }, "chat"],
    [{ kind: "telegram", url: "http://127.0.0.1:9/x" }, "kind"],
    [{ kind: "slack", url: "http://127.0.0.1:9/x", events: [] }, "events"],
    [{ kind: "slack", url: "http://127.0.0.1:9/x", events: ["lead.created"] }, "events.0"],
  ])("%j is 400 VALIDATION_ERROR on %s", async (body, path) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  test("webhooks and destinations share the form's 10 endpoints", async () => {
    const form = (await insertForm(owner, await createSite(owner, "limit"))).id;
    for (let i = 0; i < 10; i++) {
      const kind = ["webhook", "slack", "teams", "discord", "google_chat"][i % 5];
      const res = await api("POST", base(form), { token: owner.token, body: { kind, url: `http://127.0.0.1:9/${i}` } });
      expect(res.status).toBe(201);
    }
    const eleventh = await api("POST", base(form), {
      token: owner.token,
      body: { kind: "discord", url: "http://127.0.0.1:9/x" },
    });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.error.code).toBe("OUTBOUND_WEBHOOK_LIMIT_REACHED");
  });
});
