import { DEFAULT_CONFIRMATION } from "../../../lib/notifications/confirmation";
import { getForm } from "../../../lib/store/forms";
import { getItem } from "../../../lib/store/items";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { countsSettle } from "../../support/bookkeeping";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { createHook, formOfHook, storedItem, submitTo } from "../../support/submissions";

const siteForms = (siteId: string) => `/api/v1/sites/${siteId}/forms`;
const formPath = (formId: string) => `/api/v1/forms/${formId}`;

const FIELDS = [
  { key: "name", label: "Name", type: "name", required: true },
  { key: "email", label: "Email", type: "email", required: true },
  { key: "message", label: "Message", type: "textarea" },
];

async function newForm(account: Account, siteId: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", siteForms(siteId), { token: account.token, body: { name: "Contact", fields: FIELDS, ...body } });
  if (res.status !== 201) throw new Error(`form creation failed: ${res.status} ${res.text}`);
  return res.body.data.form as { id: string; [key: string]: any };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("forms");
  siteId = await createSite(owner);
});

describe("creating and reading forms", () => {
  test("POST creates a draft builder form; GET and the list show it", async () => {
    const res = await api("POST", siteForms(siteId), {
      token: owner.token,
      body: {
        name: "Quote request",
        fields: FIELDS,
        settings: { notifyEmails: ["Sales@Example.com", "sales@example.com", "ops@example.com"] },
      },
    });
    expect(res.status).toBe(201);
    const form = res.body.data.form;
    expect(form).toEqual({
      id: expect.stringMatching(/^form_[0-9A-Za-z]{22}$/),
      siteId,
      name: "Quote request",
      origin: "builder",
      webhookIds: [],
      fieldCount: 3,
      submissionCount: 0,
      spamCount: 0,
      counts: { statuses: { new: 0, contacted: 0, qualified: 0, won: 0, lost: 0 } },
      status: "draft",
      archivedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      fields: [
        { key: "name", label: "Name", type: "name", required: true, order: 1 },
        { key: "email", label: "Email", type: "email", required: true, order: 2 },
        { key: "message", label: "Message", type: "textarea", required: false, order: 3 },
      ],
      settings: {
        notifyEmails: ["sales@example.com", "ops@example.com"],
        redirectUrl: null,
        confirmation: DEFAULT_CONFIRMATION,
        forwardOnly: false,
      },
      // The site's defaults for new forms (docs/privacy.md, "Retention").
      retention: { inboxDays: null, spamDays: 30 },
      retentionJob: null,
      suppressedRecipients: [],
    });

    const read = await api("GET", formPath(form.id), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.data.form).toEqual(form);

    const list = await api("GET", siteForms(siteId), { token: owner.token });
    expect(list.status).toBe(200);
    const listed = list.body.data.forms.find((f: { id: string }) => f.id === form.id);
    const { fields: _f, settings: _s, suppressedRecipients: _r, retention: _t, retentionJob: _j, ...summary } = form;
    expect(listed).toEqual(summary);
    expect(list.body.data.nextCursor).toBeNull();
  });

  test("fields may be created empty and ordered explicitly; the API lists them by order", async () => {
    const empty = await newForm(owner, siteId, { fields: undefined });
    expect(empty.fields).toEqual([]);
    expect(empty.settings).toEqual({
      notifyEmails: [],
      redirectUrl: null,
      confirmation: DEFAULT_CONFIRMATION,
      forwardOnly: false,
    });
    const ordered = await newForm(owner, siteId, {
      status: "published",
      fields: [
        { key: "b", label: "B", type: "text", order: 20 },
        { key: "a", label: "A", type: "number", order: 10 },
      ],
    });
    expect(ordered.status).toBe("published");
    expect(ordered.fields.map((f: { key: string }) => f.key)).toEqual(["a", "b"]);
  });

  const field = (overrides: Record<string, unknown>) => ({ key: "k", label: "K", type: "text", ...overrides });
  test.each([
    ["no name", { fields: [] }],
    ["an empty name", { name: "" }],
    ["a 256-character name", { name: "n".repeat(256) }],
    ["an unknown body field", { name: "x", theme: "dark" }],
    ["fields that are not a list", { name: "x", fields: { email: {} } }],
    ["a field without a key", { name: "x", fields: [{ label: "A", type: "text" }] }],
    ["a field of an unknown type", { name: "x", fields: [field({ type: "signature" })] }],
    ["an empty label", { name: "x", fields: [field({ label: "" })] }],
    ["a negative order", { name: "x", fields: [field({ order: -1 })] }],
    ["a fractional order", { name: "x", fields: [field({ order: 1.5 })] }],
    ["a non-boolean required", { name: "x", fields: [field({ required: "yes" })] }],
    ["an unknown field property", { name: "x", fields: [field({ hidden: true })] }],
    ["repeated keys", { name: "x", fields: [field({}), field({ label: "Again" })] }],
    ["a key starting with _", { name: "x", fields: [field({ key: "_hp" })] }],
    ["a prototype key", { name: "x", fields: [field({ key: "__proto__" })] }],
    ["a 101-character key", { name: "x", fields: [field({ key: "k".repeat(101) })] }],
    ["201 fields", { name: "x", fields: Array.from({ length: 201 }, (_, i) => field({ key: `f${i}` })) }],
    ["an invalid notification email", { name: "x", settings: { notifyEmails: ["not-an-email"] } }],
    [
      "11 notification emails",
      { name: "x", settings: { notifyEmails: Array.from({ length: 11 }, (_, i) => `n${i}@example.com`) } },
    ],
    ["an unknown setting", { name: "x", settings: { theme: "dark" } }],
    ["an unknown status", { name: "x", status: "live" }],
  ])("POST with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("POST", siteForms(siteId), { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("POST to an unknown site is 404", async () => {
    const res = await api("POST", siteForms("site_0000000000000000000000"), { token: owner.token, body: { name: "x" } });
    expect(res.status).toBe(404);
  });

  test("an auto-created form lists its origin, its webhooks and its submission counts", async () => {
    const own = await signupOwner("forms-auto");
    const site = await createSite(own);
    const hook = await createHook(own, site);
    await submitTo(hook, { email: "ada@example.com", message: "Hello" });
    await submitTo(hook, { email: "bob@example.com", message: "Hi", _hp: "filled by a bot" });
    const formId = await formOfHook(own, site, hook);
    const second = await createHook(own, site, { formId });
    // The counts are the bookkeeper's, from the table stream: settled within seconds.
    await countsSettle(formId, { inbox: 1, spam: 1 });

    const list = await api("GET", siteForms(site), { token: own.token });
    expect(list.body.data.forms).toEqual([
      expect.objectContaining({
        id: formId,
        origin: "webhook",
        webhookIds: expect.arrayContaining([hook.id, second.id]),
        fieldCount: 2,
        submissionCount: 1,
        spamCount: 1,
        status: "published",
      }),
    ]);
    const detail = await api("GET", formPath(formId), { token: own.token });
    expect(detail.body.data.form.fields.map((f: { key: string }) => f.key)).toEqual(["email", "message"]);
    expect(detail.body.data.form).toMatchObject({ submissionCount: 1, spamCount: 1 });

    // Without counts (the dashboard's inbox): the same form, nothing counted.
    const uncounted = await api("GET", `${formPath(formId)}?counts=false`, { token: own.token });
    expect(uncounted.status).toBe(200);
    expect(uncounted.body.data.form).toEqual({ ...detail.body.data.form, submissionCount: null, spamCount: null, counts: null });
    const bad = await api("GET", `${formPath(formId)}?counts=no`, { token: own.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("the list is paginated with limit and cursor, and filters archived forms", async () => {
    const own = await signupOwner("forms-pages");
    const site = await createSite(own);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newForm(own, site, { name: `Form ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page = await api("GET", `${siteForms(site)}${query}`, { token: own.token });
      expect(page.status).toBe(200);
      expect(page.body.data.forms.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.forms.map((f: { id: string }) => f.id));
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);

    await api("DELETE", formPath(ids[1] as string), { token: own.token });
    const active = await api("GET", siteForms(site), { token: own.token });
    expect(active.body.data.forms.map((f: { id: string }) => f.id)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    const archived = await api("GET", `${siteForms(site)}?archived=true`, { token: own.token });
    expect(archived.body.data.forms.map((f: { id: string }) => f.id)).toEqual([ids[1]]);
    expect(archived.body.data.forms[0].archivedAt).toEqual(expect.any(String));

    for (const query of ["?archived=yes", "?limit=0", "?limit=101", "?limit=abc", "?cursor="]) {
      const bad = await api("GET", `${siteForms(site)}${query}`, { token: own.token });
      expect([query, bad.status, bad.body.error.code]).toEqual([query, 400, "VALIDATION_ERROR"]);
    }
    const foreignCursor = Buffer.from(JSON.stringify({ pk: "x", sk: "x", gsi1pk: "SITE#other#FORMS", gsi1sk: "x" })).toString(
      "base64url",
    );
    for (const cursorValue of ["not-a-cursor", foreignCursor]) {
      const bad = await api("GET", `${siteForms(site)}?cursor=${cursorValue}`, { token: own.token });
      expect([bad.status, bad.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
    }
  });
});

describe("editing forms", () => {
  test("PUT renames, adds, relabels, reorders, retypes and removes fields; removed fields keep their data", async () => {
    const form = await newForm(owner, siteId);
    const hook = await createHook(owner, siteId, { formId: form.id });
    const sent = await submitTo(hook, { name: "Ada", email: "ada@example.com", message: "Keep me" });
    await countsSettle(form.id, { inbox: 1, spam: 0 });

    const res = await api("PUT", formPath(form.id), {
      token: owner.token,
      body: {
        name: "Contact us",
        fields: [
          { key: "email", label: "Your email", type: "email", required: true, order: 1 },
          { key: "name", label: "Full name", type: "text", order: 2 },
          { key: "phone", label: "Phone", type: "phone", order: 3 },
        ],
        settings: { notifyEmails: ["Team@Example.com"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.form).toEqual(
      expect.objectContaining({
        name: "Contact us",
        fieldCount: 3,
        fields: [
          { key: "email", label: "Your email", type: "email", required: true, order: 1 },
          { key: "name", label: "Full name", type: "text", required: false, order: 2 },
          { key: "phone", label: "Phone", type: "phone", required: false, order: 3 },
        ],
        settings: {
          notifyEmails: ["team@example.com"],
          redirectUrl: null,
          confirmation: DEFAULT_CONFIRMATION,
          forwardOnly: false,
        },
        webhookIds: [hook.id],
        submissionCount: 1,
      }),
    );
    expect(res.body.data.form.updatedAt > form.updatedAt).toBe(true);
    // The message field left the schema; the value collected under it is still there.
    expect((await storedItem(sent.submissionId))?.data.message).toBe("Keep me");
    const read = await api("GET", `/api/v1/submissions/${sent.submissionId}`, { token: owner.token });
    expect(read.body.data.submission.data).toEqual({ name: "Ada", email: "ada@example.com", message: "Keep me" });
  });

  test("PUT with only settings keeps the fields; an empty body changes nothing but updatedAt", async () => {
    const form = await newForm(owner, siteId);
    const res = await api("PUT", formPath(form.id), { token: owner.token, body: { settings: { notifyEmails: [] } } });
    expect(res.status).toBe(200);
    expect(res.body.data.form.fields).toEqual(form.fields);
    expect(res.body.data.form.settings).toEqual({
      notifyEmails: [],
      redirectUrl: null,
      confirmation: DEFAULT_CONFIRMATION,
      forwardOnly: false,
    });
    const empty = await api("PUT", formPath(form.id), { token: owner.token, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data.form.name).toBe("Contact");
  });

  test.each([
    ["an empty name", { name: "" }],
    ["an unknown field", { origin: "webhook" }],
    ["a status (publish has its own route)", { status: "published" }],
    ["fields that are not a list", { fields: "email" }],
    [
      "repeated keys",
      {
        fields: [
          { key: "a", label: "A", type: "text" },
          { key: "a", label: "B", type: "text" },
        ],
      },
    ],
    ["an invalid notification email", { settings: { notifyEmails: ["x@"] } }],
    ["a non-boolean restore", { restore: "yes" }],
  ])("PUT with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const form = await newForm(owner, siteId);
    const res = await api("PUT", formPath(form.id), { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("PUT with a body that is not JSON is 400 INVALID_JSON", async () => {
    const form = await newForm(owner, siteId);
    const res = await api("PUT", formPath(form.id), {
      token: owner.token,
      rawBody: "{name:",
      headers: { "content-type": "application/json" },
    });
    expect([res.status, res.body.error.code]).toEqual([400, "INVALID_JSON"]);
  });

  test("publish and unpublish switch the status, idempotently", async () => {
    const form = await newForm(owner, siteId);
    const published = await api("POST", `${formPath(form.id)}/publish`, { token: owner.token });
    expect(published.status).toBe(200);
    expect(published.body.data.form.status).toBe("published");
    expect((await api("POST", `${formPath(form.id)}/publish`, { token: owner.token })).body.data.form.status).toBe("published");
    const draft = await api("POST", `${formPath(form.id)}/unpublish`, { token: owner.token });
    expect(draft.status).toBe(200);
    expect(draft.body.data.form.status).toBe("draft");
    expect((await api("GET", formPath(form.id), { token: owner.token })).body.data.form.status).toBe("draft");
  });

  test("duplicate makes a draft builder copy of the schema and settings, without submissions", async () => {
    const form = await newForm(owner, siteId, { status: "published", settings: { notifyEmails: ["a@example.com"] } });
    const hook = await createHook(owner, siteId, { formId: form.id });
    await submitTo(hook, { email: "x@example.com" });
    const copy = await api("POST", `${formPath(form.id)}/duplicate`, { token: owner.token });
    expect(copy.status).toBe(201);
    expect(copy.body.data.form).toEqual(
      expect.objectContaining({
        name: "Contact (copy)",
        origin: "builder",
        status: "draft",
        webhookIds: [],
        submissionCount: 0,
        fields: form.fields,
        settings: { notifyEmails: ["a@example.com"], redirectUrl: null, confirmation: DEFAULT_CONFIRMATION, forwardOnly: false },
      }),
    );
    expect(copy.body.data.form.id).not.toBe(form.id);
    const named = await api("POST", `${formPath(form.id)}/duplicate`, { token: owner.token, body: { name: "Second" } });
    expect(named.body.data.form.name).toBe("Second");
    for (const body of [{ name: "" }, { fields: [] }]) {
      const bad = await api("POST", `${formPath(form.id)}/duplicate`, { token: owner.token, body });
      expect([bad.status, bad.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
  });
});

describe("archiving and deleting forms", () => {
  test("DELETE archives (idempotently); PUT restore: true brings it back", async () => {
    const form = await newForm(owner, siteId);
    const archived = await api("DELETE", formPath(form.id), { token: owner.token });
    expect(archived.status).toBe(200);
    expect(archived.body.data.message).toMatch(/archived/i);
    expect((await api("GET", formPath(form.id), { token: owner.token })).body.data.form.archivedAt).toEqual(expect.any(String));
    expect((await api("DELETE", formPath(form.id), { token: owner.token })).status).toBe(200);

    const restored = await api("PUT", formPath(form.id), { token: owner.token, body: { restore: true } });
    expect(restored.status).toBe(200);
    expect(restored.body.data.form.archivedAt).toBeNull();
    const again = await api("PUT", formPath(form.id), { token: owner.token, body: { restore: true } });
    expect([again.status, again.body.error.code]).toEqual([409, "FORM_NOT_ARCHIVED"]);
  });

  test("permanent deletion needs an archived form, unlinks its webhooks and purges its submissions", async () => {
    const own = await signupOwner("forms-purge");
    const site = await createSite(own);
    const form = await newForm(own, site);
    const hookA = await createHook(own, site, { formId: form.id });
    const hookB = await createHook(own, site, { formId: form.id });
    const other = await newForm(own, site, { name: "Other" });
    const hookC = await createHook(own, site, { formId: other.id });
    const sent = [await submitTo(hookA, { email: "a@example.com" }), await submitTo(hookB, { email: "b@example.com" })];

    const early = await api("DELETE", `${formPath(form.id)}?permanent=true`, { token: own.token });
    expect([early.status, early.body.error.code]).toEqual([409, "FORM_NOT_ARCHIVED"]);
    const bad = await api("DELETE", `${formPath(form.id)}?permanent=yes`, { token: own.token });
    expect([bad.status, bad.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);

    await api("DELETE", formPath(form.id), { token: own.token });
    const gone = await api("DELETE", `${formPath(form.id)}?permanent=true`, { token: own.token });
    expect(gone.status).toBe(200);
    expect(gone.body.data.message).toMatch(/permanently deleted/i);
    expect(gone.body.data.unlinkedWebhookIds.sort()).toEqual([hookA.id, hookB.id].sort());

    // Gone for every reader at once.
    expect((await api("GET", formPath(form.id), { token: own.token })).status).toBe(404);
    expect((await api("GET", `${formPath(form.id)}/submissions`, { token: own.token })).status).toBe(404);
    expect((await api("GET", `/api/v1/submissions/${sent[0]?.submissionId}`, { token: own.token })).status).toBe(404);
    expect((await api("DELETE", `${formPath(form.id)}?permanent=true`, { token: own.token })).status).toBe(404);
    const listed = await api("GET", `${siteForms(site)}?archived=true`, { token: own.token });
    expect(listed.body.data.forms).toEqual([]);

    for (const hook of [hookA, hookB]) {
      const detail = await api("GET", `/api/v1/sites/${site}/webhooks/${hook.id}`, { token: own.token });
      expect(detail.body.data.formId).toBeNull();
    }
    const untouched = await api("GET", `/api/v1/sites/${site}/webhooks/${hookC.id}`, { token: own.token });
    expect(untouched.body.data.formId).toBe(other.id);

    // The background purge (stream → queue → consumer, grace 0 in tests) deletes the rest.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && ((await getForm(form.id)) || (await storedItem(sent[0]?.submissionId as string))))
      await sleep(250);
    expect(await getForm(form.id)).toBeUndefined();
    for (const s of sent) expect(await storedItem(s.submissionId)).toBeUndefined();
    expect(await getItem(keys.purgeJob(form.id))).toBeUndefined();
    expect(await getForm(other.id)).toBeDefined();

    // The unlinked webhook's next submission gets a new auto-created form.
    await submitTo(hookA, { email: "later@example.com" });
    const relinked = await api("GET", `/api/v1/sites/${site}/webhooks/${hookA.id}`, { token: own.token });
    expect(relinked.body.data.formId).toEqual(expect.stringMatching(/^form_/));
    expect(relinked.body.data.formId).not.toBe(form.id);
  });
});

describe("form permissions", () => {
  test("API keys need each route's permission", async () => {
    const own = await signupOwner("forms-keys");
    const site = await createSite(own);
    const form = await newForm(own, site);
    const all = ["forms.view", "forms.create", "forms.edit", "forms.delete", "forms.publish"];
    const routes: [string, string, string, unknown?][] = [
      ["GET", siteForms(site), "forms.view"],
      ["GET", formPath(form.id), "forms.view"],
      ["POST", siteForms(site), "forms.create", { name: "By key" }],
      ["POST", `${formPath(form.id)}/duplicate`, "forms.create"],
      ["PUT", formPath(form.id), "forms.edit", { name: "Renamed by key" }],
      ["POST", `${formPath(form.id)}/publish`, "forms.publish"],
      ["POST", `${formPath(form.id)}/unpublish`, "forms.publish"],
      ["DELETE", formPath(form.id), "forms.delete"],
    ];
    const full = await apiKeyWith(own, all);
    for (const [method, path, permission, body] of routes) {
      const lacking = await apiKeyWith(
        own,
        all.filter((p) => p !== permission),
      );
      const denied = await api(method, path, { token: lacking, ...(body ? { body } : {}) });
      expect([method, path, denied.status, denied.body.error?.code]).toEqual([method, path, 403, "INSUFFICIENT_PERMISSION"]);
      expect(denied.body.error.message).toContain(permission);
      const allowed = await api(method, path, { token: full, ...(body ? { body } : {}) });
      expect([method, path, allowed.status < 300]).toEqual([method, path, true]);
    }
    const lackingDelete = await apiKeyWith(
      own,
      all.filter((p) => p !== "forms.delete"),
    );
    expect((await api("DELETE", `${formPath(form.id)}?permanent=true`, { token: lackingDelete })).status).toBe(403);
    expect((await api("DELETE", `${formPath(form.id)}?permanent=true`, { token: full })).status).toBe(200);
  });

  test("a member session works with forms but cannot archive or delete them (no forms.delete)", async () => {
    const own = await signupOwner("forms-member");
    const site = await createSite(own);
    const member = await addMember(own, "member");
    const created = await api("POST", siteForms(site), { token: member.token, body: { name: "By member" } });
    expect(created.status).toBe(201);
    const formId = created.body.data.form.id;
    expect((await api("PUT", formPath(formId), { token: member.token, body: { name: "Edited" } })).status).toBe(200);
    expect((await api("POST", `${formPath(formId)}/publish`, { token: member.token })).status).toBe(200);
    for (const path of [formPath(formId), `${formPath(formId)}?permanent=true`]) {
      const denied = await api("DELETE", path, { token: member.token });
      expect([denied.status, denied.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
      expect(denied.body.error.message).toContain("forms.delete");
    }
    expect((await api("GET", formPath(formId), { token: member.token })).body.data.form.archivedAt).toBeNull();
  });

  test("without credentials every form route is 401", async () => {
    const form = await newForm(owner, siteId);
    for (const [method, path] of [
      ["GET", siteForms(siteId)],
      ["POST", siteForms(siteId)],
      ["GET", formPath(form.id)],
      ["PUT", formPath(form.id)],
      ["DELETE", formPath(form.id)],
      ["POST", `${formPath(form.id)}/duplicate`],
      ["POST", `${formPath(form.id)}/publish`],
      ["POST", `${formPath(form.id)}/unpublish`],
    ] as const) {
      expect([method, path, (await api(method, path)).status]).toEqual([method, path, 401]);
    }
  });
});

describe("form isolation", () => {
  test("every form route answers 404 for another organization's site or form, and changes nothing", async () => {
    const form = await newForm(owner, siteId);
    const archivedForm = await newForm(owner, siteId, { name: "Archived" });
    await api("DELETE", formPath(archivedForm.id), { token: owner.token });
    const intruder = await signupOwner("forms-intruder");
    const intruderKey = await apiKeyWith(intruder, ["forms.view", "forms.create", "forms.edit", "forms.delete", "forms.publish"]);
    for (const token of [intruder.token, intruderKey]) {
      for (const [method, path, body] of [
        ["GET", siteForms(siteId)],
        ["POST", siteForms(siteId), { name: "x" }],
        ["GET", formPath(form.id)],
        ["PUT", formPath(form.id), { name: "stolen" }],
        ["PUT", formPath(archivedForm.id), { restore: true }],
        ["POST", `${formPath(form.id)}/duplicate`],
        ["POST", `${formPath(form.id)}/publish`],
        ["POST", `${formPath(form.id)}/unpublish`],
        ["DELETE", formPath(form.id)],
        ["DELETE", `${formPath(archivedForm.id)}?permanent=true`],
      ] as const) {
        const res = await api(method, path, { token, ...(body ? { body } : {}) });
        expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, "NOT_FOUND"]);
      }
    }
    const after = await getForm(form.id);
    expect(after).toEqual(expect.objectContaining({ name: "Contact", status: "draft", archivedAt: null, deletedAt: null }));
    expect((await getForm(archivedForm.id))?.deletedAt).toBeNull();
    // A form inserted into another organization's site by id is not reachable either.
    const stray = await insertForm(intruder, siteId, { name: "Stray" }, { uncounted: true });
    expect((await api("GET", formPath(stray.id), { token: owner.token })).status).toBe(404);
  });
});
