/**
 * The ready-to-paste captcha setup for each kind the API verifies (docs/spam.md, "Captcha"):
 * the vendor's script and the widget or token field, named as intake reads it. The `<form>` is
 * the source's own HTML form (a site's sources, "Setup"); these lines go into it.
 */
export type CaptchaKind = "score" | "challenge";

export interface CaptchaSnippet {
  id: string;
  /** The vendor, as a tab label. */
  title: string;
  /** The field the widget posts and intake reads the token from. */
  tokenField: string;
  code: string;
}

/** Shown in place of the site key until one is typed. */
export const SITE_KEY_PLACEHOLDER = "YOUR_SITE_KEY";

/** Vendor keys are URL- and attribute-safe; anything else is dropped rather than pasted into HTML. */
const safe = (siteKey: string) => siteKey.replace(/[^A-Za-z0-9_-]/g, "") || SITE_KEY_PLACEHOLDER;

export function captchaSnippets(kind: CaptchaKind, siteKey: string): CaptchaSnippet[] {
  const key = safe(siteKey.trim());
  if (kind === "score") {
    // reCAPTCHA v3 tokens live two minutes: ask for one when the form is sent, not when the page loads.
    return [
      {
        id: "recaptcha-v3",
        title: "reCAPTCHA v3",
        tokenField: "g-recaptcha-response",
        code: `<script src="https://www.google.com/recaptcha/api.js?render=${key}"></script>

<form id="contact-form" action="YOUR_SOURCE_URL" method="POST">
  <!-- …your fields… -->
  <input type="hidden" name="g-recaptcha-response">
  <button type="submit">Send</button>
</form>

<script>
  document.getElementById("contact-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var form = event.target;
    grecaptcha.ready(function () {
      grecaptcha.execute("${key}", { action: "submit" }).then(function (token) {
        form.elements["g-recaptcha-response"].value = token;
        form.submit();
      });
    });
  });
</script>`,
      },
    ];
  }
  return [
    {
      id: "hcaptcha",
      title: "hCaptcha",
      tokenField: "h-captcha-response",
      code: `<script src="https://js.hcaptcha.com/1/api.js" async defer></script>

<form action="YOUR_SOURCE_URL" method="POST">
  <!-- …your fields… -->
  <div class="h-captcha" data-sitekey="${key}"></div>
  <button type="submit">Send</button>
</form>`,
    },
    {
      id: "turnstile",
      title: "Cloudflare Turnstile",
      tokenField: "cf-turnstile-response",
      code: `<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>

<form action="YOUR_SOURCE_URL" method="POST">
  <!-- …your fields… -->
  <div class="cf-turnstile" data-sitekey="${key}"></div>
  <button type="submit">Send</button>
</form>`,
    },
  ];
}
