import { createHash } from "node:crypto";
import { looksLikeEmail } from "./email-address";
import { inferFieldType, looksLikePhone } from "./intake/mapping";
import { COMPANY_KEY } from "./leads";
import type { RawValue } from "./store/shapes";

/**
 * The inbox's search keys (docs/api.md, "Searching submissions"; docs/data-model.md, "Search
 * entry"): the few normalized values a person would type to find a submission, each one a
 * partition of the form's search index that the bookkeeper keeps from the table stream
 * (lib/bookkeeping/index-submissions.ts). A search is one exact key, never a substring: the query
 * is normalized the same way, so `  Ada@Example.COM ` meets `ada@example.com`, `+44 20 7946 0000`
 * meets `020 7946 0000`, `web-42` meets `WEB-42`, `José` meets `jose`.
 *
 * Which fields count is what intake's field inference already knows (lib/intake/mapping.ts:
 * email by value, phone and a person's name by key) and the lead rules' company key
 * (lib/leads.ts): no form read, so the stream's record alone says what to index.
 */

/** Keys per submission at most: a submission costs at most this many index writes, and as many deletes. */
export const MAX_SEARCH_KEYS = 8;
/** Longer text is not something a person types to find a lead: not indexed (and a longer query finds nothing). */
export const MAX_KEY_LENGTH = 200;
/** A phone number is keyed by its last digits, so the international and national forms meet. */
export const PHONE_KEY_DIGITS = 9;

/** Case, accents, width and runs of white space do not matter: `  José  DA Silva` → `jose da silva`. */
export function normalizeText(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** A phone number's key: its last PHONE_KEY_DIGITS digits (all of them when fewer), or undefined when it is not one. */
export function phoneKey(value: string): string | undefined {
  if (!looksLikePhone(value)) return undefined;
  return `tel:${value.replace(/\D/g, "").slice(-PHONE_KEY_DIGITS)}`;
}

const textKey = (value: string) => {
  const text = normalizeText(value);
  return text.length > 0 && text.length <= MAX_KEY_LENGTH && /[\p{L}\p{N}]/u.test(text) ? text : undefined;
};

/**
 * The key a search query stands for: a phone key when it reads as a phone number, else its
 * normalized text; undefined when nothing of it can be searched (no letter or digit).
 */
export function queryKey(query: string): string | undefined {
  return phoneKey(query) ?? textKey(query);
}

/** What a search key is stored as: a fixed-size digest, so no value a person typed is part of a key. */
export const searchToken = (key: string) => createHash("sha256").update(key).digest("base64url").slice(0, 22);

/** What a submission is found by. */
export interface Searchable {
  referenceId: string;
  data: Record<string, RawValue>;
  metadata?: { replyTo?: string } | undefined;
}

const valuesOf = (value: RawValue) => (Array.isArray(value) ? value : [value]);

/** A person's name parts in the order they are said (first, middle, last), else by key. */
const NAME_PART_RANK = [/first|given|fore/, /middle/, /last|family|sur/];
const nameRank = (field: string) => {
  const at = NAME_PART_RANK.findIndex((part) => part.test(field.toLowerCase()));
  return at === -1 ? 1 : at;
};
const fieldOrder = (a: string, b: string) => nameRank(a) - nameRank(b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * A submission's search keys, at most MAX_SEARCH_KEYS, in this order of priority: its reference,
 * its email addresses (any value shaped like one, and the reply-to), its phone numbers, its
 * company, a person's name (each name field whole, the name fields together in the order first,
 * middle, last, then each word).
 */
export function searchKeysOf(submission: Searchable): string[] {
  const emails: string[] = [];
  const phones: string[] = [];
  const companies: string[] = [];
  const names: string[] = [];
  // A stored map has no order (DynamoDB's maps are unordered): fields are read in one of their own.
  for (const [field, raw] of Object.entries(submission.data).sort(([a], [b]) => fieldOrder(a, b))) {
    for (const value of valuesOf(raw)) {
      if (typeof value !== "string" || value.trim() === "") continue;
      const type = inferFieldType(field, value);
      if (type === "email" || looksLikeEmail(value)) emails.push(value);
      else if (type === "phone") phones.push(value);
      else if (type === "name") names.push(value);
      else if (COMPANY_KEY.test(field)) companies.push(value);
    }
  }
  if (submission.metadata?.replyTo) emails.push(submission.metadata.replyTo);
  // Words split at anything but letters, digits, apostrophes and hyphens: `Ada "The Countess" Lovelace`
  // gives `countess`, `O'Brien` and `Jean-Luc` stay whole.
  const words = names.flatMap((name) => normalizeText(name).split(/[^\p{L}\p{N}'’-]+/u)).filter((word) => word.length >= 2);
  const candidates = [
    textKey(submission.referenceId),
    ...emails.map(textKey),
    ...phones.map(phoneKey),
    ...companies.map(textKey),
    ...names.map(textKey),
    names.length > 1 ? textKey(names.join(" ")) : undefined,
    ...words.map(textKey),
  ];
  const keys = new Set<string>();
  for (const key of candidates) {
    if (key === undefined) continue;
    keys.add(key);
    if (keys.size === MAX_SEARCH_KEYS) break;
  }
  return [...keys];
}
