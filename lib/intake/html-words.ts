import type { ErrorCode } from "../errors";

/**
 * What a refused submission's page says, in words for the person who pressed Send (usually not
 * the site's owner: "let the site's owner know" where only they can fix it). Every code the
 * intake route can answer has its sentence; docs/intake.md, "Check order", lists them.
 */
export const REFUSAL_WORDS: Partial<Record<ErrorCode, string>> = {
  NOT_FOUND:
    "This form's address is not known to the service that collects its submissions: the form may have been removed, or its address is mistyped. Please let the site's owner know.",
  UNSUPPORTED_MEDIA_TYPE:
    "The form sent its answers in a format that cannot be read. The site's owner needs to change how the form is set up.",
  PAYLOAD_TOO_LARGE: "The submission is too large. Please shorten your answers and send it again.",
  INVALID_BODY: "The submission could not be read. Please go back and send it again.",
  TOO_MANY_FIELDS: "The submission has more fields or choices than one submission may carry.",
  FIELD_NAME_TOO_LONG: "One of the form's field names is too long. The site's owner needs to fix the form.",
  FIELD_VALUE_TOO_LONG: "One of your answers is too long (at most 10,000 characters). Please shorten it and send it again.",
  NO_DATA_FIELDS: "The submission was empty. Please fill in the form and send it again.",
  WEBHOOK_KEY_REQUIRED: "This form is not set up correctly: its access key is missing. Please let the site's owner know.",
  WEBHOOK_KEY_INVALID: "This form is not set up correctly: its access key is wrong. Please let the site's owner know.",
  WEBHOOK_ARCHIVED: "This form no longer accepts submissions.",
  WEBHOOK_DISABLED: "This form is not accepting submissions at the moment.",
  SITE_INACTIVE: "This site is not accepting submissions at the moment.",
  INVALID_IDEMPOTENCY_KEY: "The submission carried a request key that is too long.",
  IDEMPOTENCY_KEY_REUSED: "This submission reuses the request key of an earlier, different submission.",
  INVALID_REDIRECT:
    "The form is set up to send you on to a page it may not send you to, so nothing was sent. Please let the site's owner know.",
  CAPTCHA_REQUIRED: "Please complete the check that you are a person (the captcha) and send the form again.",
  CAPTCHA_FAILED:
    "The check that you are a person (the captcha) did not pass. Please go back, complete it and send the form again.",
  CAPTCHA_UNAVAILABLE: "The check that you are a person could not be verified just now. Please try again in a moment.",
  RATE_LIMITED: "Too many submissions arrived in a short time. Please wait a moment and send the form again.",
  SERVICE_UNAVAILABLE: "The service is busy. Please try again in a moment.",
  INTERNAL_ERROR: "Something went wrong on our side, and your submission was not saved. Please try again later.",
};

/** For a code without its own sentence (none today): words by the status's class. */
export function refusalWords(code: string, status: number): string {
  const words = REFUSAL_WORDS[code as ErrorCode];
  if (words) return words;
  return status >= 500
    ? "Something went wrong on our side, and your submission was not saved. Please try again later."
    : "The submission was refused. Please check the form and send it again.";
}
