import { normalizeSubmission } from "../../../lib/intake/fields";
import { takeCaptchaTokens } from "../../../lib/spam/captcha";

describe("captcha tokens in JSON bodies", () => {
  test("a token beside a `data` object is read, and never stored as data", () => {
    const submission = normalizeSubmission({
      json: { data: { email: "ada@example.com" }, "g-recaptcha-response": "tok-1", _redirect: "https://x.test/" },
      droppedFiles: [],
    });
    expect(takeCaptchaTokens(submission.data)).toEqual({ "g-recaptcha-response": "tok-1" });
    expect(submission.data).toEqual({ email: "ada@example.com" });
    expect(submission.controls.redirect).toBe("https://x.test/");
  });

  test("other top-level keys beside `data` are still ignored", () => {
    const submission = normalizeSubmission({ json: { data: { a: "1" }, other: "x" }, droppedFiles: [] });
    expect(submission.data).toEqual({ a: "1" });
  });
});

describe("characters the queue cannot carry", () => {
  test("U+FFFE, U+FFFF and lone surrogates are stored as U+FFFD", () => {
    const submission = normalizeSubmission({ json: { note: "a\uFFFEb\uFFFFc\uD800d" }, droppedFiles: [] });
    expect(submission.data.note).toBe("a\uFFFDb\uFFFDc\uFFFDd");
  });
});
