import type { Form } from "./store/forms";
import { everyFormSubmission, type StoredSubmission } from "./store/submissions";

/**
 * Finding a person's submissions by their address (docs/data-model.md, "Erasure by email"), for
 * the erasures and the access requests (docs/privacy.md, "Erasure and access requests"). There is
 * no index by address: each form's submissions are read through the form's index partition and
 * matched in the function, sites in id order, each site's forms in id order, so a walk that ran
 * out of time resumes where it stopped, and one whose form was purged meanwhile goes on with the
 * next form rather than over again.
 */

/** An address as it is compared: without case or surrounding spaces. */
export const normalizedEmail = (address: string) => address.trim().toLowerCase();

/** The value list of a field (multi-valued fields are lists). */
const valuesOf = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** True when any field value (or the reply-to address) is `email` (normalized), compared without case or surrounding spaces. */
export function holdsEmail(submission: StoredSubmission, email: string): boolean {
  const same = (text: string | undefined) => text !== undefined && text.trim().toLowerCase() === email;
  return same(submission.metadata?.replyTo) || Object.values(submission.data).some((v) => valuesOf(v).some(same));
}

/** Where a walk stopped: a site, a form of it (`""`: before its first), and the DynamoDB page key inside that form. */
export interface WalkPosition {
  siteId: string;
  formId: string;
  key?: string;
}

/** A site to walk, with how to read its forms (all of them: archived and purging ones too). */
export interface WalkSite {
  id: string;
  forms: () => Promise<Form[]>;
}

export interface Walk {
  orgId: string;
  sites: readonly WalkSite[];
  /** Normalized (`normalizedEmail`). */
  email: string;
  from?: WalkPosition | undefined;
  /** Each DynamoDB page's matches (of the organization and of the site walked); `true` stops the walk after this page (the answer is full). */
  take: (items: StoredSubmission[], form: Form) => Promise<boolean | undefined> | boolean | undefined;
  /** Checked after each page and each form: the walk stops when the time budget is spent. */
  outOfTime: () => boolean;
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Walks the submissions of `sites` that hold `email` from `from` on, handing them to `take` a
 * page at a time: answers where to resume, or null once every form has been read.
 */
export async function walkEmailHolders(walk: Walk): Promise<WalkPosition | null> {
  const { orgId, email, from } = walk;
  const sites = [...walk.sites].sort(byId).filter((site) => !from || site.id >= from.siteId);
  let stop = false;
  for (const [s, site] of sites.entries()) {
    const resume = from && site.id === from.siteId ? from : undefined;
    const forms = (await site.forms()).filter((form) => form.orgId === orgId && (!resume || form.id >= resume.formId)).sort(byId);
    for (const [f, form] of forms.entries()) {
      const key = resume && form.id === resume.formId ? resume.key : undefined;
      const match = { spam: "all" as const, match: (s: StoredSubmission) => holdsEmail(s, email) };
      for await (const page of everyFormSubmission(form.id, match, key)) {
        const items = page.items.filter((item) => item.orgId === orgId && item.siteId === site.id);
        stop = (await walk.take(items, form)) === true;
        if (page.lastKey && (stop || walk.outOfTime())) return { siteId: site.id, formId: form.id, key: page.lastKey };
      }
      const nextForm = forms[f + 1];
      const nextSite = sites[s + 1];
      const next = nextForm
        ? { siteId: site.id, formId: nextForm.id }
        : nextSite
          ? { siteId: nextSite.id, formId: "" }
          : undefined;
      if (next && (stop || walk.outOfTime())) return next;
    }
    // A site without forms: the check above never ran for it.
    const nextSite = sites[s + 1];
    if (forms.length === 0 && nextSite && walk.outOfTime()) return { siteId: nextSite.id, formId: "" };
  }
  return null;
}
