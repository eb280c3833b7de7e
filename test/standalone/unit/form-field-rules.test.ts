import { fieldInput, fieldsInput } from "../../../lib/form-inputs";
import * as z from "../../../lib/validation";
import { fieldProblems, keyFromLabel, keyProblem, newRow, relabel } from "../../../web/src/features/forms/field-rules";

/**
 * The builder checks a field key before anything is sent (web/src/features/forms/field-rules.ts);
 * the API checks it again (lib/form-inputs.ts). They must agree, or the page would let through
 * what the API refuses (an error away from its field) or refuse what the API takes.
 */
const KEYS = [
  "email",
  "full_name",
  "a",
  "x".repeat(100),
  "x".repeat(101),
  "",
  "_redirect",
  "_",
  "__proto__",
  "constructor",
  "prototype",
  "a.constructor",
  "constructor.b",
  "a.prototype.c",
  "constructors",
  "my_prototype",
  "a.b.c",
  "naïve key",
  "x_",
];

describe("the builder's key rules and the API's", () => {
  test.each(KEYS)("agree on %j", (key) => {
    const api = z.safeParse(fieldInput, { key, label: "Label", type: "text" }).success;
    expect(keyProblem(key, false) === undefined).toBe(api);
  });

  test("a repeated key is refused by both, and marked on the later row only", () => {
    const rows = [
      { ...newRow(), key: "email", label: "Email" },
      { ...newRow(), key: "email", label: "Email again" },
    ];
    expect(
      z.safeParse(
        fieldsInput,
        rows.map((r) => ({ key: r.key, label: r.label, type: r.type })),
      ).success,
    ).toBe(false);
    const problems = fieldProblems(rows);
    expect(problems[0]?.key).toBeUndefined();
    expect(problems[1]?.key).toBe("Another field already has this key.");
  });

  test("a label is 1 to 255 characters after trimming, as the API says", () => {
    for (const label of ["", "   ", "L", "l".repeat(255), "l".repeat(256)]) {
      const api = z.safeParse(fieldInput, { key: "k", label, type: "text" }).success;
      expect(fieldProblems([{ ...newRow(), key: "k", label }])[0]?.label === undefined).toBe(api);
    }
  });
});

describe("keys suggested by labels", () => {
  test.each([
    ["Your email", "your_email"],
    ["  Phone (mobile) ", "phone_mobile"],
    ["__Secret__", "secret"],
    ["Ünïcode café", "unicode_cafe"],
    ["!!!", ""],
  ])("%j → %j", (label, key) => {
    expect(keyFromLabel(label)).toBe(key);
  });

  test("a new field's key follows its label until it is edited; a saved field's key never moves", () => {
    const typed = relabel(relabel(newRow(), "Your"), "Your email");
    expect(typed.key).toBe("your_email");
    const edited = relabel({ ...typed, key: "contact" }, "Email address");
    expect(edited.key).toBe("contact");
    const saved = relabel({ ...newRow(), key: "email", label: "Email", saved: true }, "Work email");
    expect(saved.key).toBe("email");
  });
});
