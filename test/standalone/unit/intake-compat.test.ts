import { oneLine, senderName } from "../../../lib/header-text";
import { carbonCopies, takeCompatControls } from "../../../lib/intake/compat";
import type { NormalizedSubmission } from "../../../lib/intake/fields";
import { resolvedAgainst, validateRedirect } from "../../../lib/intake/redirect";
import { carbonCopied } from "../../../lib/notifications/email";
import type { RawValue } from "../../../lib/store/shapes";
import { code } from "../../support/app-error";

/** Other services' control fields, the pure parts (lib/intake/compat.ts, lib/header-text.ts). */
const submission = (data: Record<string, RawValue>): NormalizedSubmission => ({
  data: { ...data },
  controls: {},
  ignoredFields: [],
});

describe("takeCompatControls", () => {
  test("without a setting nothing is taken", () => {
    const s = submission({ access_key: "k", subject: "S", "form-name": "c", "bot-field": "x" });
    expect(takeCompatControls(s, null)).toEqual({ honeypots: [] });
    expect(takeCompatControls(s, undefined)).toEqual({ honeypots: [] });
    expect(Object.keys(s.data)).toEqual(["access_key", "subject", "form-name", "bot-field"]);
  });

  test("web3forms: every name taken out of the data, in any letter case, the first value of a list", () => {
    const s = submission({
      Access_Key: ["k1", "k2"],
      subject: "S",
      REDIRECT: "https://x.example/",
      replyto: "r@example.org",
      from_name: "Acme",
      ccemail: "a@example.org",
      botcheck: "",
      webhook: "https://hooks.example/",
      name: "Ada",
      email: "ada@example.org",
    });
    expect(takeCompatControls(s, { service: "web3forms", honeypotField: null })).toEqual({
      secret: "k1",
      subject: "S",
      redirect: "https://x.example/",
      replyTo: "r@example.org",
      fromName: "Acme",
      cc: "a@example.org",
      honeypots: [],
    });
    expect(s.data).toEqual({ name: "Ada", email: "ada@example.org" });
  });

  test("access_key beats apikey by coming first; either alone is the secret", () => {
    expect(takeCompatControls(submission({ apikey: "old", n: "x" }), { service: "web3forms", honeypotField: null }).secret).toBe(
      "old",
    );
  });

  test.each([
    ["on", true],
    ["true", true],
    ["1", true],
    ["false", false],
    ["0", false],
    ["OFF", false],
    ["  ", false],
  ])("botcheck %j is a hit: %s", (value, hit) => {
    const controls = takeCompatControls(submission({ botcheck: value, n: "x" }), { service: "web3forms", honeypotField: null });
    expect(controls.honeypots).toEqual(hit ? ["botcheck"] : []);
  });

  test("netlify: form-name and bot-field by default; a honeypotField replaces bot-field, matched as stored", () => {
    const s = submission({ "form-name": "contact", "bot-field": "x", n: "1" });
    expect(takeCompatControls(s, { service: "netlify", honeypotField: null })).toEqual({
      formName: "contact",
      honeypots: ["bot-field"],
      replyTo: undefined,
    });
    const custom = submission({ "bot-field": "kept", "trap.x": "filled", n: "1" });
    expect(takeCompatControls(custom, { service: "netlify", honeypotField: "Trap__x" }).honeypots).toEqual(["trap.x"]);
    expect(custom.data).toEqual({ "bot-field": "kept", n: "1" });
  });

  test("email is the reply-to under formspree, basin, web3forms, netlify when it is one plain address; never under getform", () => {
    for (const service of ["formspree", "basin", "web3forms", "netlify"] as const) {
      expect(takeCompatControls(submission({ email: " a@example.org " }), { service, honeypotField: null }).replyTo).toBe(
        "a@example.org",
      );
      expect(
        takeCompatControls(submission({ email: "a@x.org, b@x.org" }), { service, honeypotField: null }).replyTo,
      ).toBeUndefined();
    }
    expect(
      takeCompatControls(submission({ email: "a@example.org" }), { service: "getform", honeypotField: null }).replyTo,
    ).toBeUndefined();
    // An explicit replyto wins, even an invalid one (then no Reply-To at all).
    expect(
      takeCompatControls(submission({ email: "a@example.org", replyto: "nope" }), { service: "web3forms", honeypotField: null })
        .replyTo,
    ).toBe("nope");
  });
});

describe("carbonCopies", () => {
  const recipients = ["Sales@Example.com", "ops@example.com"];
  test("picks the form's own addresses (any case, either separator, once each) and counts the rest", () => {
    expect(
      carbonCopies(["sales@example.com; stranger@evil.example", "OPS@example.com,sales@EXAMPLE.com, ,"], recipients),
    ).toEqual({
      cc: ["Sales@Example.com", "ops@example.com"],
      ccIgnored: 1,
    });
  });
  test("nothing asked, nothing said; no recipients, everything ignored", () => {
    expect(carbonCopies([undefined, ""], recipients)).toEqual({});
    expect(carbonCopies(["a@example.com"], [])).toEqual({ ccIgnored: 1 });
  });
});

describe("carbonCopied", () => {
  const meta = (cc?: string[]) => ({
    metadata: {
      source: "generic",
      userAgent: null,
      referer: null,
      ip: null,
      droppedFiles: [],
      ignoredFields: [],
      ...(cc ? { cc } : {}),
    },
  });
  test("moves the picked recipients still being sent to into Cc; never adds; keeps a To", () => {
    expect(carbonCopied(["a@x.org", "b@x.org"], meta(["B@x.org", "c@x.org"]))).toEqual({ to: ["a@x.org"], cc: ["b@x.org"] });
    expect(carbonCopied(["a@x.org"], meta(["a@x.org"]))).toEqual({ to: ["a@x.org"] });
    expect(carbonCopied(["a@x.org"], meta())).toEqual({ to: ["a@x.org"] });
  });
});

describe("header text", () => {
  test("oneLine flattens control characters and caps in code points", () => {
    expect(oneLine("a\r\nBcc: x\u0085\u2028y\tz", 100)).toBe("a Bcc: x y z");
    expect(oneLine("🎉".repeat(10), 5)).toBe("🎉🎉🎉🎉…");
  });
  test("senderName: no quotes, brackets or addresses", () => {
    expect(senderName(' "Acme" <Web>\r\n')).toBe("Acme Web");
    expect(senderName("ceo@bank.example")).toBeUndefined();
    expect(senderName('""')).toBeUndefined();
    expect([...(senderName("n".repeat(100)) ?? "")]).toHaveLength(64);
  });
});

describe("relative redirects", () => {
  const page = "https://www.example.com/contact/form";
  test("a path resolves against the page and stays on its origin", () => {
    expect(resolvedAgainst("./thank-you.html", page)).toBe("https://www.example.com/contact/thank-you.html");
    expect(resolvedAgainst("/thanks?a=1", page)).toBe("https://www.example.com/thanks?a=1");
    expect(resolvedAgainst("thanks", page)).toBe("https://www.example.com/contact/thanks");
  });
  test.each([
    "//evil.example/x",
    "\\\\evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "",
  ])("%j is not resolved", (raw) => {
    expect(resolvedAgainst(raw, page)).toBeUndefined();
  });
  test("the base must be an http(s) URL", () => {
    expect(resolvedAgainst("/x", "")).toBeUndefined();
    expect(resolvedAgainst("/x", "file:///etc/passwd")).toBeUndefined();
  });
  test("validateRedirect with a base: the domain rule still applies; without one, a path is refused", () => {
    expect(validateRedirect("./t.html", "example.com", { base: page }).href).toBe("https://www.example.com/contact/t.html");
    expect(code(() => validateRedirect("/t", "example.com", { base: "https://evil.example/" }))).toBe("INVALID_REDIRECT");
    expect(code(() => validateRedirect("/t", "example.com"))).toBe("INVALID_REDIRECT");
    expect(code(() => validateRedirect("/t", "example.com", { base: "" }))).toBe("INVALID_REDIRECT");
  });
});
