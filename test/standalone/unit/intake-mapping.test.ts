import { inferFieldType, labelFromKey, mapToForm } from "../../../lib/intake/mapping";
import type { Form } from "../../../lib/store/forms";

describe("inferFieldType", () => {
  test.each([
    ["email", "a@b.co", "email"],
    ["contact", "a@b.co", "email"],
    ["e-mail", "", "email"],
    ["phone", "+1 (555) 010-0199", "phone"],
    ["mobile_number", "07700 900123", "phone"],
    ["tel", "", "phone"],
    ["hotel", "Ritz", "text"],
    ["name", "Ada", "name"],
    ["first_name", "Ada", "name"],
    ["Last Name", "Lovelace", "name"],
    ["contact.full-name", "Ada L", "name"],
    ["company_name", "Acme", "text"],
    ["username", "ada", "text"],
    ["website", "https://example.com", "url"],
    ["when", "2026-11-21", "date"],
    ["at", "2026-11-21T10:15:30Z", "date"],
    ["age", "36", "number"],
    ["zip", "90210", "text"],
    ["message", "hi", "textarea"],
    ["notes", "line\nline", "textarea"],
    ["long", "x".repeat(201), "textarea"],
    ["topics", ["a", "b"], "select"],
    ["one", ["a"], "text"],
    ["city", "London", "text"],
  ])("%s = %j is %s", (key, value, type) => {
    expect(inferFieldType(key, value as string | string[])).toBe(type);
  });

  test("labelFromKey", () => {
    expect(labelFromKey("first_name")).toBe("First name");
    expect(labelFromKey("address.city")).toBe("Address city");
    expect(labelFromKey("utmSource")).toBe("Utm source");
  });
});

describe("mapToForm", () => {
  const builder = (fields: Form["fields"]): Pick<Form, "fields" | "origin"> => ({ fields, origin: "builder" });
  const field = (label: string, type: Form["fields"][string]["type"], order: number) => ({ label, type, required: false, order });

  test("by key, then loose key or label, then type; unmatched keys kept and, for a builder form, not added", () => {
    const form = builder({
      email: field("Email", "email", 1),
      full_name: field("Your full name", "name", 2),
      phone: field("Phone", "phone", 3),
      notes: field("Notes", "textarea", 4),
    });
    const out = mapToForm(form, {
      "Your Full-Name": "Ada",
      reach_me: "ada@example.com",
      cell: "+44 20 7946 0958",
      NOTES: "hi",
      utm: "x",
    });
    expect({ ...out.data }).toEqual({
      full_name: "Ada",
      email: "ada@example.com",
      phone: "+44 20 7946 0958",
      notes: "hi",
      utm: "x",
    });
    expect(out.fieldsMapped.sort()).toEqual(["email", "full_name", "notes", "phone"]);
    expect({ ...out.newFields }).toEqual({});
  });

  test("each field takes one key; an exact key wins; a loser keeps its name, suffixed only if taken", () => {
    const form = builder({ email: field("Email", "email", 1) });
    const out = mapToForm(form, { "E-Mail": "loose@example.com", email: "exact@example.com", other: "other@example.com" });
    expect({ ...out.data }).toEqual({ email: "exact@example.com", "E-Mail": "loose@example.com", other: "other@example.com" });
    expect(out.fieldsMapped).toEqual(["email"]);
    const clash = mapToForm(builder({ a: field("B", "text", 1) }), { b: "1", a: "2", b_2: "3" });
    expect({ ...clash.data }).toEqual({ a: "2", b: "1", b_2: "3" });
  });

  test("type matching needs exactly one unfilled field of the type", () => {
    const two = builder({ work: field("Work", "email", 1), home: field("Home", "email", 2) });
    expect({ ...mapToForm(two, { contact: "a@example.com" }).data }).toEqual({ contact: "a@example.com" });
  });

  test("an auto-created form gains unmatched keys as new fields (typed and labelled by the hints first)", () => {
    const form: Pick<Form, "fields" | "origin"> = { fields: { email: field("Email", "email", 3) }, origin: "webhook" };
    const out = mapToForm(
      form,
      { email: "a@example.com", budget: "10", note: "x" },
      { labels: { budget: "Your budget" }, types: { budget: "text" } },
    );
    expect({ ...out.newFields }).toEqual({
      budget: { label: "Your budget", type: "text", required: false, order: 4 },
      note: { label: "Note", type: "text", required: false, order: 5 },
    });
    expect(out.fieldsMapped).toEqual(["email", "budget", "note"]);
    // A key named like an Object.prototype member is an ordinary key (no hint is inherited).
    // An auto-created form stops growing at 500 fields; later keys are still stored.
    const full = Object.fromEntries(Array.from({ length: 499 }, (_, i) => [`f${i}`, field(`F${i}`, "text", i + 1)]));
    const capped = mapToForm({ fields: full, origin: "webhook" }, { new1: "a", new2: "b" });
    expect(Object.keys(capped.newFields)).toEqual(["new1"]);
    expect({ ...capped.data }).toEqual({ new1: "a", new2: "b" });
    expect(capped.fieldsMapped).toEqual(["new1"]);
    const odd = mapToForm({ fields: {}, origin: "webhook" }, { toString: "x", constructor_id: "y" }, { labels: {} });
    expect(odd.newFields.toString).toEqual({ label: "To string", type: "text", required: false, order: 1 });
  });
});
