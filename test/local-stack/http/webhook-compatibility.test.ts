import { getItem } from "../../../lib/store/items";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";

// A webhook's `compatibility` (docs/api.md, "Webhooks"; docs/intake.md,
// "Other services' control fields").
const base = (siteId: string) => `/api/v1/sites/${siteId}/webhooks`;

describe("a webhook's compatibility setting", () => {
  let owner: Account;
  let siteId: string;
  beforeAll(async () => {
    owner = await signupOwner("webhook-compat");
    siteId = await createSite(owner);
  });

  test("is null by default and in every answer", async () => {
    const created = await api("POST", base(siteId), { token: owner.token, body: { name: "Plain" } });
    expect(created.status).toBe(201);
    expect(created.body.data.compatibility).toBeNull();
    const id = created.body.data.id as string;
    const detail = await api("GET", `${base(siteId)}/${id}`, { token: owner.token });
    expect(detail.body.data.compatibility).toBeNull();
    const list = await api("GET", base(siteId), { token: owner.token });
    expect(list.body.data.webhooks.find((w: { id: string }) => w.id === id).compatibility).toBeNull();
    const updated = await api("PUT", `${base(siteId)}/${id}`, { token: owner.token, body: { name: "Renamed" } });
    expect(updated.body.data.compatibility).toBeNull();
  });

  test("set on create, returned by create, get, list and update; changed and cleared by PUT", async () => {
    const created = await api("POST", base(siteId), {
      token: owner.token,
      body: { name: "From Netlify", compatibility: { service: "netlify", honeypotField: "  my-trap  " } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.compatibility).toEqual({ service: "netlify", honeypotField: "my-trap" });
    const id = created.body.data.id as string;
    const url = `${base(siteId)}/${id}`;
    const stored = await getItem<Record<string, unknown>>(keys.webhook(id));
    expect(stored?.compatibility).toEqual({ service: "netlify", honeypotField: "my-trap" });

    expect((await api("GET", url, { token: owner.token })).body.data.compatibility).toEqual({
      service: "netlify",
      honeypotField: "my-trap",
    });
    const listed = (await api("GET", base(siteId), { token: owner.token })).body.data.webhooks.find(
      (w: { id: string }) => w.id === id,
    );
    expect(listed.compatibility).toEqual({ service: "netlify", honeypotField: "my-trap" });

    // honeypotField may be left out: null, the service's default.
    const changed = await api("PUT", url, { token: owner.token, body: { compatibility: { service: "web3forms" } } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.compatibility).toEqual({ service: "web3forms", honeypotField: null });
    expect((await api("GET", url, { token: owner.token })).body.data.compatibility).toEqual({
      service: "web3forms",
      honeypotField: null,
    });

    // A PUT without the field leaves it alone.
    const renamed = await api("PUT", url, { token: owner.token, body: { name: "Renamed" } });
    expect(renamed.body.data.compatibility).toEqual({ service: "web3forms", honeypotField: null });

    const cleared = await api("PUT", url, { token: owner.token, body: { compatibility: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.compatibility).toBeNull();
    expect((await api("GET", url, { token: owner.token })).body.data.compatibility).toBeNull();
  });

  test.each(["formspree", "formsubmit", "basin", "getform", "web3forms", "netlify"])(
    "service %s is accepted",
    async (service) => {
      const res = await api("POST", base(siteId), {
        token: owner.token,
        body: { name: service, compatibility: { service, honeypotField: null } },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.compatibility).toEqual({ service, honeypotField: null });
    },
  );

  test.each([
    ["an unknown service", { service: "typeform" }],
    ["no service", { honeypotField: "bot-field" }],
    ["an underscore honeypot", { service: "netlify", honeypotField: "_gotcha" }],
    ["an empty honeypot", { service: "netlify", honeypotField: "   " }],
    ["a 101-character honeypot", { service: "netlify", honeypotField: "h".repeat(101) }],
    ["a non-string honeypot", { service: "netlify", honeypotField: 7 }],
    ["an unknown member", { service: "netlify", honeypotField: null, extra: true }],
    ["a string", "netlify"],
  ])("%s is 400 VALIDATION_ERROR on POST and PUT, and changes nothing", async (_label, compatibility) => {
    const created = await api("POST", base(siteId), { token: owner.token, body: { name: "Bad", compatibility } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe("VALIDATION_ERROR");
    const ok = await api("POST", base(siteId), {
      token: owner.token,
      body: { name: "Kept", compatibility: { service: "formspree" } },
    });
    const url = `${base(siteId)}/${ok.body.data.id}`;
    const put = await api("PUT", url, { token: owner.token, body: { compatibility } });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe("VALIDATION_ERROR");
    expect((await api("GET", url, { token: owner.token })).body.data.compatibility).toEqual({
      service: "formspree",
      honeypotField: null,
    });
  });

  test("a 100-character honeypot field is accepted", async () => {
    const res = await api("POST", base(siteId), {
      token: owner.token,
      body: { name: "Long trap", compatibility: { service: "basin", honeypotField: "h".repeat(100) } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.compatibility.honeypotField).toBe("h".repeat(100));
  });

  test("a member (no sites.edit) cannot set it; another organization's webhook is 404", async () => {
    const created = await api("POST", base(siteId), { token: owner.token, body: { name: "Guarded" } });
    const url = `${base(siteId)}/${created.body.data.id}`;
    const member = await addMember(owner, "member");
    const refused = await api("PUT", url, { token: member.token, body: { compatibility: { service: "netlify" } } });
    expect(refused.status).toBe(403);
    const stranger = await signupOwner("webhook-compat-stranger");
    const foreign = await api("PUT", url, { token: stranger.token, body: { compatibility: { service: "netlify" } } });
    expect(foreign.status).toBe(404);
    expect((await api("GET", url, { token: owner.token })).body.data.compatibility).toBeNull();
  });
});
