import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { loadConfig } from "./config";
import { decodeCursorValue, encodeCursorValue } from "./cursor";
import { normalizedEmail, type Walk, type WalkPosition, walkEmailHolders } from "./email-holders";
import { AppError } from "./errors";
import { sha256Base62 } from "./ids";
import { putAuditEntry } from "./store/audit-log";
import { allSiteForms } from "./store/forms";
import { allSites } from "./store/sites";
import { deleteSubmissionsAudited } from "./store/submissions";
import { submissionView } from "./submissions";

/**
 * A person's data across the organization (docs/privacy.md, "Erasure and access requests"):
 * the access request (GDPR art. 15) answers every submission of every site and form that holds
 * the address; the organization-wide erasure (art. 17) deletes them. Both walk the organization's
 * forms as the per-site erasure does (lib/email-holders.ts), within the same time budget, and
 * answer a cursor to continue with when it runs out.
 */

type RequestKind = "access" | "erase";

/**
 * The JSON an access request answers stays well under Lambda's 6 MB response limit: a call stops
 * after the DynamoDB page that brings it past this many bytes (a page reads at most 1 MB).
 */
export const ACCESS_PAGE_BYTES = 2_000_000;

/**
 * A cursor names where the walk stopped and is bound to the request it belongs to: the kind,
 * the organization and the address, as a hash (`b`). A cursor of another address, organization
 * or kind is 400 INVALID_CURSOR, so two requests never mix; a crafted position can only point
 * into the caller's own organization, whose sites are all the walk reads.
 */
interface SubjectCursor {
  s: string;
  f: string;
  k?: string;
  b: string;
}

const binding = (kind: RequestKind, orgId: string, email: string) => sha256Base62(`${kind}\n${orgId}\n${email}`);

function encodeSubjectCursor(kind: RequestKind, orgId: string, email: string, at: WalkPosition): string {
  const cursor: SubjectCursor = { s: at.siteId, f: at.formId, ...(at.key ? { k: at.key } : {}), b: binding(kind, orgId, email) };
  return encodeCursorValue(cursor);
}

const isText = (value: unknown, max: number): value is string => typeof value === "string" && value.length <= max;

function decodeSubjectCursor(kind: RequestKind, orgId: string, email: string, cursor: string): WalkPosition {
  const c = decodeCursorValue(cursor) as Partial<SubjectCursor> | undefined;
  const wellFormed =
    c !== undefined &&
    isText(c.s, 100) &&
    c.s !== "" &&
    isText(c.f, 100) &&
    (c.k === undefined || isText(c.k, 4096)) &&
    c.b === binding(kind, orgId, email);
  if (!wellFormed) {
    throw new AppError("INVALID_CURSOR", "The cursor is not valid for this request (another address, or not from this request)");
  }
  return { siteId: c.s as string, formId: c.f as string, ...(c.k ? { key: c.k } : {}) };
}

/**
 * What both requests start with: the address as compared, where the walk resumes (the cursor
 * checked against this request), and the organization's sites, each reading its forms when the
 * walk reaches it. `walk` runs to the end or the time budget; `cursorAt` is where it stopped.
 */
async function begin(kind: RequestKind, principal: Principal, address: string, cursor: string | undefined, now: () => number) {
  const { orgId } = principal;
  const email = normalizedEmail(address);
  const deadline = now() + loadConfig().ERASE_TIME_BUDGET_MS;
  const from = cursor ? decodeSubjectCursor(kind, orgId, email, cursor) : undefined;
  const sites = await allSites(orgId);
  return {
    email,
    siteNames: new Map(sites.map((site) => [site.id, site.name])),
    walk: (take: Walk["take"]) =>
      walkEmailHolders({
        orgId,
        sites: sites.map((site) => ({ id: site.id, forms: () => allSiteForms(site.id) })),
        email,
        from,
        take,
        outOfTime: () => now() > deadline,
      }),
    cursorAt: (stopped: WalkPosition | null) => (stopped ? encodeSubjectCursor(kind, orgId, email, stopped) : null),
  };
}

/** A submission of an access request: the API's view, with the names of its site and form. */
export type AccessedSubmission = ReturnType<typeof submissionView> & { siteName: string; formName: string };

/**
 * Every submission of the organization holding `address`, a call at a time: each call answers
 * what it found and a cursor while there is more (`nextCursor` null at the end). Each call
 * records one audit entry (the address, how many submissions it answered) once it has them.
 */
export async function requestAccess(principal: Principal, sourceIp: string, address: string, cursor?: string, now = Date.now) {
  const request = await begin("access", principal, address, cursor, now);
  const submissions: AccessedSubmission[] = [];
  let bytes = 0;
  const stopped = await request.walk((items, form) => {
    for (const item of items) {
      const found = { ...submissionView(item), siteName: request.siteNames.get(item.siteId) ?? "", formName: form.name };
      bytes += Buffer.byteLength(JSON.stringify(found));
      submissions.push(found);
    }
    return bytes >= ACCESS_PAGE_BYTES;
  });
  await putAuditEntry(
    audited(
      principal,
      sourceIp,
      "submissions.access_requested",
      { type: "organization", id: principal.orgId },
      {
        email: request.email,
        submissions: submissions.length,
        complete: stopped === null,
      },
    ),
  );
  return { submissions, nextCursor: request.cursorAt(stopped) };
}

/**
 * Deletes every submission of the organization holding `address`, a call at a time like the
 * access request. Each transaction of deletes carries the audit entry that counts them
 * (lib/store/submissions.ts, `deleteSubmissionsAudited`); a request that finds nothing in its first call records an entry of
 * its own with none, so the log shows that it was asked.
 */
export async function eraseEverywhere(principal: Principal, sourceIp: string, address: string, cursor?: string, now = Date.now) {
  const request = await begin("erase", principal, address, cursor, now);
  const entry = (count: number) =>
    audited(
      principal,
      sourceIp,
      "submissions.erased",
      { type: "organization", id: principal.orgId },
      {
        email: request.email,
        count,
      },
    );
  let deleted = 0;
  const stopped = await request.walk(async (items) => {
    await deleteSubmissionsAudited(
      items.map((s) => s.id),
      (chunk) => entry(chunk.length),
    );
    deleted += items.length;
    return false;
  });
  if (!cursor && !stopped && deleted === 0) await putAuditEntry(entry(0));
  return { deleted, complete: stopped === null, cursor: request.cursorAt(stopped) };
}
