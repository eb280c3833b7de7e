import { type Account, api, signupOwner } from "../../support/api";
import {
  accepted,
  expectStatus,
  formSubmissions,
  type IntakeTarget,
  intakePath,
  intakeTarget,
  linkedForm,
  postIntake,
  submitted,
} from "../../support/intake";

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

describe("limits", () => {
  let t: IntakeTarget;
  beforeAll(async () => {
    t = await target("limits");
  });

  const fields = (n: number, valueLength = 1) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, "v".repeat(valueLength)]));

  test("a body over 256 KB is 413 PAYLOAD_TOO_LARGE; just under is accepted", async () => {
    expectStatus(await postIntake(t.webhook, { json: fields(200, 1320) }), 413, "PAYLOAD_TOO_LARGE");
    expectStatus(await postIntake(t.webhook, { form: fields(200, 1320) }), 413, "PAYLOAD_TOO_LARGE");
    const under = await postIntake(t.webhook, { json: fields(190, 1320) });
    expect(JSON.stringify(fields(190, 1320)).length).toBeLessThan(256 * 1024);
    accepted(under);
  });

  test("a body that grows past 300 KB once decoded is 413 too (Windows-1252 bytes become 3-byte UTF-8), never a 500", async () => {
    const raw = Buffer.concat(
      Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from(`${i ? "&" : ""}f${i}=`), Buffer.alloc(10_000, 0x80)])),
    );
    expect(raw.length).toBeLessThan(256 * 1024);
    expectStatus(
      await postIntake(t.webhook, { raw, contentType: "application/x-www-form-urlencoded" }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    // Half of it fits: 10 fields of 10,000 euro signs.
    const { stored } = await submitted(
      await postIntake(t.webhook, { raw: raw.subarray(0, raw.length / 2 - 1), contentType: "application/x-www-form-urlencoded" }),
    );
    expect(stored.data.f0).toBe("€".repeat(10_000));
  });

  test("more than 200 fields is 400 TOO_MANY_FIELDS; 200 are accepted", async () => {
    expectStatus(await postIntake(t.webhook, { json: fields(201) }), 400, "TOO_MANY_FIELDS");
    expectStatus(await postIntake(t.webhook, { form: fields(201) }), 400, "TOO_MANY_FIELDS");
    const entries = Object.entries(fields(201));
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v);
    const multipart = await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never });
    expectStatus(multipart, 400, "TOO_MANY_FIELDS");
    accepted(await postIntake(t.webhook, { json: fields(200) }));
    accepted(await postIntake(t.webhook, { form: fields(200) }));
  });

  test("a list counts once: a checkbox group of 100 values next to 199 fields is accepted; 101 values are not", async () => {
    const pairs: [string, string][] = [
      ...Array.from({ length: 100 }, (_, i): [string, string] => ["pick", `p${i}`]),
      ...Object.entries(fields(199)),
    ];
    const { stored } = await submitted(await postIntake(t.webhook, { form: pairs }));
    expect(stored.data.pick).toHaveLength(100);
    const tooMany = Array.from({ length: 101 }, (_, i): [string, string] => ["pick", `p${i}`]);
    expectStatus(await postIntake(t.webhook, { form: tooMany }), 400, "TOO_MANY_FIELDS");
  });

  test("a field name over 100 characters is 400 FIELD_NAME_TOO_LONG in every content type; 100 (even in 3-byte characters) is accepted", async () => {
    const long = "n".repeat(101);
    expectStatus(await postIntake(t.webhook, { json: { [long]: "x" } }), 400, "FIELD_NAME_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { form: { [long]: "x" } }), 400, "FIELD_NAME_TOO_LONG");
    const form = new FormData();
    form.append(long, "x");
    expectStatus(
      await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never }),
      400,
      "FIELD_NAME_TOO_LONG",
    );
    expectStatus(await postIntake(t.webhook, { json: { a: { [long]: "x" } } }), 400, "FIELD_NAME_TOO_LONG");
    const { stored } = await submitted(
      await postIntake(t.webhook, { form: { ["名".repeat(100)]: "x", ["n".repeat(100)]: "y" } }),
    );
    expect(Object.keys(stored.data).sort()).toEqual(["n".repeat(100), "名".repeat(100)].sort());
  });

  test("a value over 10,000 characters is 400 FIELD_VALUE_TOO_LONG in every content type; 10,000 (even in 2-byte characters) is accepted", async () => {
    const long = "v".repeat(10_001);
    expectStatus(await postIntake(t.webhook, { json: { message: long } }), 400, "FIELD_VALUE_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { form: { message: long } }), 400, "FIELD_VALUE_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { json: { list: ["ok", long] } }), 400, "FIELD_VALUE_TOO_LONG");
    const form = new FormData();
    form.append("message", long);
    expectStatus(
      await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never }),
      400,
      "FIELD_VALUE_TOO_LONG",
    );
    const { stored } = await submitted(
      await postIntake(t.webhook, { form: { message: "é".repeat(10_000), emoji: "🎉".repeat(10_000) } }),
    );
    expect(stored.data.message).toHaveLength(10_000);
    expect([...(stored.data.emoji as string)]).toHaveLength(10_000);
  });
});

describe("field names and shapes", () => {
  test("__proto__, constructor and prototype pollute nothing and are listed in metadata.ignoredFields", async () => {
    const t = await target("pollution");
    const raw =
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": "p",' +
      ' "a": {"__proto__": {"polluted": "yes"}}, "b__proto__": "z", "toString": "kept", "email": "x@example.com"}';
    const json = await submitted(await postIntake(t.webhook, { raw, contentType: "application/json" }));
    expect(json.stored.data).toEqual({ toString: "kept", email: "x@example.com" });
    expect(json.stored.metadata.ignoredFields.sort()).toEqual(
      ["__proto__", "a.__proto__", "b__proto__", "constructor", "prototype"].sort(),
    );

    const form = await submitted(
      await postIntake(t.webhook, {
        raw: "__proto__[polluted]=yes&__proto__=x&constructor=y&a.prototype=z&name=ok",
        contentType: "application/x-www-form-urlencoded",
      }),
    );
    expect(form.stored.data).toEqual({ name: "ok" });
    expect(form.stored.metadata.ignoredFields.sort()).toEqual(
      ["__proto__", "__proto__[polluted]", "a.prototype", "constructor"].sort(),
    );

    // Nothing leaked into any object of the running service: a later submission is clean.
    const later = await submitted(await postIntake(t.webhook, { json: { plain: "1" } }));
    expect(later.stored.data).toEqual({ plain: "1" });
    expect(Object.keys(later.stored.metadata)).not.toContain("polluted");
    const fields = (await linkedForm(t.webhook.id)).fields;
    for (const name of ["__proto__", "constructor", "prototype", "polluted"]) expect(Object.keys(fields)).not.toContain(name);
  });

  test("a JSON body with a data object: that object is the fields; top-level control fields still count", async () => {
    const t = await target("data-rule");
    const res = await postIntake(t.webhook, {
      json: { data: { name: "Ada", email: "ada@example.com" }, source: "not a field", _redirect: "https://example.com/ok" },
    });
    expect(res.status).toBe(303);
    const form = await linkedForm(t.webhook.id);
    const [stored] = await formSubmissions(form.id);
    expect(stored?.data).toEqual({ name: "Ada", email: "ada@example.com" });
    // `data` that is not an object is an ordinary field.
    const plain = await submitted(await postIntake(t.webhook, { json: { data: "just text", n: 1 } }));
    expect(plain.stored.data).toEqual({ data: "just text", n: "1" });
  });

  test("nested JSON is stored under dotted keys; Zapier's a__b is stored as a.b; scalars become text", async () => {
    const t = await target("nested");
    const json = await submitted(
      await postIntake(t.webhook, {
        json: {
          contact: { name: "Ada", address: { city: "London", zip: "NW1" } },
          tags: ["a", 2, true, null],
          items: [{ sku: "X1" }],
          count: 3,
          price: 9.5,
          ok: false,
          skipped: null,
          deep: { l2: { l3: { l4: { l5: { l6: "too deep" } } } } },
        },
      }),
    );
    expect(json.stored.data).toEqual({
      "contact.name": "Ada",
      "contact.address.city": "London",
      "contact.address.zip": "NW1",
      tags: ["a", "2", "true", ""],
      items: '[{"sku":"X1"}]',
      count: "3",
      price: "9.5",
      ok: "false",
      "deep.l2.l3.l4.l5": '{"l6":"too deep"}',
    });
    const zapier = await submitted(
      await postIntake(t.webhook, { form: { contact__name: "Grace", contact__address__city: "Arlington", plain: "x" } }),
    );
    expect(zapier.stored.data).toEqual({ "contact.name": "Grace", "contact.address.city": "Arlington", plain: "x" });
    // Both spellings land in the same form field.
    expect(zapier.result.fieldsMapped).toEqual(expect.arrayContaining(["contact.name", "contact.address.city"]));
  });
});
