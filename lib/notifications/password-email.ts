import type { EmailContent } from "../aws/ses";
import { escapeHtml } from "./email";

/**
 * The emails of a password reset and change (docs/accounts.md, "A forgotten password"): pure, so
 * their content is tested without SES. A reset link carries its token in the fragment, as every
 * emailed link does (lib/notifications/account-email.ts).
 */

/** Paragraphs, a link, more paragraphs: as plain text and as HTML (every piece escaped). */
function message(
  to: string,
  subject: string,
  content: { before: string[]; link: { href: string; label: string }; after: string[] },
): EmailContent {
  const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
  const { before, link, after } = content;
  return {
    to: [to],
    subject,
    text: `${[...before, link.href, ...after].join("\n\n")}\n`,
    html: [
      ...before.map(p),
      `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
      p(link.href),
      ...after.map(p),
    ].join(""),
  };
}

const site = (baseUrl: string) => baseUrl.replace(/\/+$/, "");

/**
 * The reset link, to an address an account holds. An account that never verified the address
 * may be a squatter's (docs/accounts.md): the reader is told so, since using the link gives them
 * that account, its organization and its team, and verifies the address for it.
 */
export function resetEmail(
  to: string,
  token: string,
  options: { baseUrl: string; ttlMinutes: number; unverified: boolean },
): EmailContent {
  const warning = options.unverified
    ? [
        "This account never confirmed this address. If you did not create an Inlet account with it, someone else did: do not use this link, which would give you their account and organization. Sign up with the address instead; Inlet then offers to take it back from them.",
      ]
    : [];
  return message(to, "Reset your Inlet password", {
    before: [
      "Someone, hopefully you, asked to reset the password of the Inlet account that uses this address. Open the link to choose a new password; every session of the account is signed out.",
      ...warning,
    ],
    link: { href: `${site(options.baseUrl)}/reset-password#token=${token}`, label: "Choose a new password" },
    after: [
      `The token is ${token} (or send it to the API: POST /api/v1/auth/password-reset/confirm with {"token": "<token>", "password": "<new password>"}).`,
      `The link works once and expires in ${options.ttlMinutes} minutes. If you did not ask for this, ignore this email: your password stays as it is.`,
    ],
  });
}

/** The answer to a reset asked for an address no account uses: the same single email, without a link to use. */
export function noAccountEmail(to: string, baseUrl: string): EmailContent {
  return message(to, "Reset your Inlet password", {
    before: [
      "Someone, hopefully you, asked to reset the password of an Inlet account with this address, but no account uses it. Perhaps you signed up with another address; or create an account:",
    ],
    link: { href: `${site(baseUrl)}/sign-up`, label: "Create an account" },
    after: ["If you did not ask for this, ignore this email."],
  });
}

/** After a signed-in password change: the address's owner hears of it, and how to take the account back. */
export function passwordChangedEmail(to: string, baseUrl: string): EmailContent {
  return message(to, "Your Inlet password was changed", {
    before: [
      "The password of your Inlet account was changed, and every other session of the account was signed out. If that was you, there is nothing to do.",
      "If it was not you, reset the password now: the link comes to this address, and the reset signs out everyone, including whoever changed it.",
    ],
    link: { href: `${site(baseUrl)}/forgot-password`, label: "Reset my password" },
    after: [],
  });
}
