import type { EmailMessage } from "../aws/ses";
import { escapeHtml } from "./email";

/**
 * The emails of the account's own address (docs/accounts.md): pure, so their content is tested
 * without SES. The link carries its token in the fragment (`#token=`): a fragment is never sent
 * to a server, so the token stays out of access logs, proxies and Referer headers; the
 * dashboard's page reads it and POSTs it to the API.
 */
export type AccountEmailKind = "verify" | "reclaim";

const COPY: Record<AccountEmailKind, { path: string; subject: string; intro: string; action: string; apiHint: string }> = {
  verify: {
    path: "/verify-email",
    subject: "Confirm your email address for Inlet",
    intro: "Someone, hopefully you, created an Inlet account with this address. Open the link to confirm it is yours.",
    action: "Confirm my address",
    apiHint: 'or send it to the API: POST /api/v1/auth/verify-email with {"token": "<token>"}',
  },
  reclaim: {
    path: "/reclaim-email",
    subject: "Take back your email address on Inlet",
    intro:
      "Someone asked to take this address back from an Inlet account that never confirmed it. If that was you, open the link to create your own account with it; the unconfirmed account loses the address.",
    action: "Take back my address",
    apiHint:
      'or sign up through the API: POST /api/v1/auth/signup with your email, password, name, organizationName and "reclaimToken": "<token>"',
  },
};

export function accountEmail(kind: AccountEmailKind, to: string, token: string, baseUrl: string, ttlHours: number): EmailMessage {
  const copy = COPY[kind];
  const link = `${baseUrl.replace(/\/+$/, "")}${copy.path}#token=${token}`;
  const expiry = `The link works once and expires in ${ttlHours} hours. If you did not ask for this, ignore this email.`;
  return {
    to: [to],
    subject: copy.subject,
    text: `${copy.intro}\n\n${link}\n\nThe token is ${token} (${copy.apiHint}).\n\n${expiry}\n`,
    html: `<p>${escapeHtml(copy.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(copy.action)}</a></p><p>${escapeHtml(
      link,
    )}</p><p>The token is <code>${escapeHtml(token)}</code> (${escapeHtml(copy.apiHint)}).</p><p>${escapeHtml(expiry)}</p>`,
  };
}
