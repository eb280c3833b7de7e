import type { EmailContent } from "../aws/ses";
import { escapeHtml } from "./email";

/**
 * The emails of the account's own address (docs/accounts.md): pure, so their content is tested
 * without SES. The link carries its token in the fragment (`#token=`): a fragment is never sent
 * to a server, so the token stays out of access logs, proxies and Referer headers; the
 * dashboard's page reads it, says what the link is for, and acts only on a person's click.
 */
export type AccountEmailKind = "verify" | "reclaim" | "change";

/** What the link is for, as its item records it: the email names them, so a stranger knows at once. */
export interface AccountEmailAbout {
  accountName?: string | undefined;
  organizationName?: string | undefined;
  /** A reclaim asked from an invite: the organization the signup joins, and the role. */
  invite?: { organizationName: string; role: string } | undefined;
}

interface Copy {
  path: string;
  subject: string;
  intro: string;
  action: string;
  apiHint: string;
  /** For a person who did not ask for this email: what to do, and a link when there is something to do. */
  notMe: { text: string; path?: string; action?: string };
}

const quoted = (name: string | undefined, fallback: string) => (name === undefined ? fallback : `"${name}"`);

function copyOf(kind: AccountEmailKind, about: AccountEmailAbout): Copy {
  const account = quoted(about.accountName, "an account");
  const organization = quoted(about.organizationName, "its organization");
  const signedIn = 'signed in as that account ("Authorization: Bearer <session token>")';
  switch (kind) {
    case "verify":
      return {
        path: "/verify-email",
        subject: "Confirm your email address for Inlet",
        intro: `The Inlet account ${account} in the organization ${organization} was created with this address. If you created it, open the link and confirm the address while signed in to that account.`,
        action: "Confirm my address",
        apiHint: `or send it to the API, ${signedIn}: POST /api/v1/auth/verify-email with {"token": "<token>"}`,
        notMe: {
          text: "Not you? Then someone else used your address. Nothing is confirmed unless that account confirms it while signed in. You can take the address back, and create your own account with it, here:",
          path: "/reclaim-email",
          action: "This was not me: take my address back",
        },
      };
    case "change":
      return {
        path: "/verify-email",
        subject: "Confirm the new email address of your Inlet account",
        intro: `The Inlet account ${account} in the organization ${organization} asked to use this address from now on. If that is you, open the link and confirm it while signed in to that account.`,
        action: "Confirm my new address",
        apiHint: `or send it to the API, ${signedIn}: POST /api/v1/auth/verify-email with {"token": "<token>"}`,
        notMe: { text: "Not you? Then ignore this email: nothing changes unless that account confirms this address." },
      };
    case "reclaim": {
      const join = about.invite
        ? ` and join the organization "${about.invite.organizationName}" as ${about.invite.role}, as you were invited to`
        : "";
      return {
        path: "/reclaim-email",
        subject: "Take back your email address on Inlet",
        intro: `Someone asked to take this address back from an Inlet account that never confirmed it. If that was you, open the link to create your own account with it${join}; the unconfirmed account loses the address.`,
        action: "Take back my address",
        apiHint: `or sign up through the API: POST /api/v1/auth/signup with your email, password, name, ${
          about.invite ? "" : "organizationName (or the inviteToken of an invite) "
        }and "reclaimToken": "<token>"`,
        notMe: { text: "If you did not ask for this, ignore this email: nothing happens unless the link is used." },
      };
    }
  }
}

const linkTo = (baseUrl: string, path: string, token: string) => `${baseUrl.replace(/\/+$/, "")}${path}#token=${token}`;

export function accountEmail(
  kind: AccountEmailKind,
  to: string,
  token: string,
  baseUrl: string,
  ttlHours: number,
  about: AccountEmailAbout = {},
): EmailContent {
  const copy = copyOf(kind, about);
  const link = linkTo(baseUrl, copy.path, token);
  const notMeLink = copy.notMe.path ? linkTo(baseUrl, copy.notMe.path, token) : undefined;
  const expiry = `The link works once and expires in ${ttlHours} hours. Opening it changes nothing by itself: the page shows what it is for and acts only when you press its button.`;
  const textNotMe = `${copy.notMe.text}${notMeLink ? `\n\n${notMeLink}` : ""}`;
  const htmlNotMe = `<p>${escapeHtml(copy.notMe.text)}${
    notMeLink ? ` <a href="${escapeHtml(notMeLink)}">${escapeHtml(copy.notMe.action ?? notMeLink)}</a>` : ""
  }</p>`;
  return {
    to: [to],
    subject: copy.subject,
    text: `${copy.intro}\n\n${link}\n\nThe token is ${token} (${copy.apiHint}).\n\n${expiry}\n\n${textNotMe}\n`,
    html: `<p>${escapeHtml(copy.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(copy.action)}</a></p><p>${escapeHtml(
      link,
    )}</p><p>The token is <code>${escapeHtml(token)}</code> (${escapeHtml(copy.apiHint)}).</p><p>${escapeHtml(expiry)}</p>${htmlNotMe}`,
  };
}

/**
 * The notice to an account's old address once the account moved to a new one (docs/accounts.md,
 * "Changing the address"). It names neither the new address nor anything beyond what the old
 * address's owner knew: it may be read by someone who no longer has access to the account.
 */
export function addressChangedEmail(to: string, about: AccountEmailAbout, changedAt: string): EmailContent {
  const account = quoted(about.accountName, "your account");
  const organization = quoted(about.organizationName, "its organization");
  const lines = [
    `The Inlet account ${account} in the organization ${organization} no longer uses this address: on ${changedAt} it moved to another address, which its owner confirmed while signed in to the account.`,
    "This address can no longer sign in to that account, and Inlet sends it nothing more for it.",
    "If you did not make this change, someone signed in to your account did: ask the owner of your organization, or the administrators of this Inlet service, for help.",
  ];
  return {
    to: [to],
    subject: "The email address of your Inlet account was changed",
    text: `${lines.join("\n\n")}\n`,
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
  };
}
