import { looksLikeEmail } from "../email-address";
import type { FieldType, Form, FormField } from "../store/forms";
import type { RawValue } from "../store/shapes";
import { INTAKE_LIMITS } from "./limits";

const PHONE = /^\+?[\d\s().-]{7,20}$/;
const URL_VALUE = /^https?:\/\/\S+$/i;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** `phone`, `telephone`, `work_phone`, `tel`, `mobile`, `cell` (not `hotel`, not `cellar`). */
const PHONE_NAME = /phone|(^|[._\s-])(tel|mobile|cell)($|[._\s-])/;
/** A person's name: `name`, `full_name`, `First Name`, `contact.last-name`, `surname` (not `company_name`). */
const PERSON_NAME =
  /(^|\.)(your[._\s-]?)?(full[._\s-]?|first[._\s-]?|last[._\s-]?|given[._\s-]?|family[._\s-]?|middle[._\s-]?|sur)?name$/;

const first = (value: RawValue) => (Array.isArray(value) ? (value[0] ?? "") : value).trim();
const digits = (value: string) => value.replace(/\D/g, "").length;

export const looksLikePhone = (value: string) => PHONE.test(value.trim()) && digits(value) >= 7 && digits(value) <= 15;

/**
 * A field's type from its name and first value (docs/intake.md, "Auto-created forms"): select
 * (several values), email, phone, name (a person's), url, date, number, textarea (long,
 * multi-line, or named message/comment/description), else text.
 */
export function inferFieldType(key: string, value: RawValue): FieldType {
  const name = key.toLowerCase();
  const text = first(value);
  if (Array.isArray(value) && value.length > 1) return "select";
  if (looksLikeEmail(text) || (/e-?mail/.test(name) && text === "")) return "email";
  if (PHONE_NAME.test(name) && (text === "" || looksLikePhone(text))) return "phone";
  if (PERSON_NAME.test(name)) return "name";
  if (URL_VALUE.test(text)) return "url";
  if (DATE.test(text)) return "date";
  if (NUMBER.test(text) && !/zip|postal|phone/.test(name)) return "number";
  if (text.length > 200 || text.includes("\n") || /message|comment|description/.test(name)) return "textarea";
  return "text";
}

/** `first_name` → `First name`, `address.city` → `Address city`. */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[._\-\s]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]?.toUpperCase() + words.slice(1) : key;
}

/** Keys and labels compare without case, spaces or punctuation: `E-mail Address` ~ `email_address`. */
const loose = (s: unknown) =>
  String(s ?? "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

export interface Mapping {
  /** The submission's data, keyed by form field key where a field matched. */
  data: Record<string, RawValue>;
  /** Form fields that received a value. */
  fieldsMapped: string[];
  /** Fields to add to the form's schema (auto-created forms only). */
  newFields: Record<string, FormField>;
}

/**
 * Maps incoming keys to a form's fields (spec 4.2, auto-created forms rule 5), each field
 * receiving at most one key: first every key that is exactly a field's key, then keys equal to a
 * field's key or label compared loosely, then by type (an email-looking value to the form's only
 * unfilled email field, a phone-looking one to its only unfilled phone field). A key that matches
 * nothing is stored under its own name, never dropped; an auto-created form also gains it as a
 * new field (rule 4), a builder form's schema is left as its author made it.
 */
export function mapToForm(
  form: Pick<Form, "fields" | "origin">,
  incoming: Record<string, RawValue>,
  hints: { labels?: Record<string, string>; types?: Record<string, FieldType> } = {},
): Mapping {
  const fields = Object.entries(form.fields);
  const byLoose = new Map<string, string>();
  for (const [key, field] of fields) {
    if (!byLoose.has(loose(key))) byLoose.set(loose(key), key);
    if (!byLoose.has(loose(field.label))) byLoose.set(loose(field.label), key);
  }
  const data: Record<string, RawValue> = Object.create(null);
  const mapped = new Set<string>();
  const assign = (target: string, value: RawValue) => {
    data[target] = value;
    mapped.add(target);
  };
  const pending = Object.entries(incoming).filter(([key, value]) => {
    if (!Object.hasOwn(form.fields, key)) return true;
    assign(key, value);
    return false;
  });
  const unmatched = pending.filter(([key, value]) => {
    const target = byLoose.get(loose(key));
    if (target === undefined || mapped.has(target) || loose(key) === "") return true;
    assign(target, value);
    return false;
  });
  const newFields: Record<string, FormField> = Object.create(null);
  let order = fields.reduce((max, [, f]) => Math.max(max, f.order), 0);
  // The schema's size as stored (about: the field map's JSON), which must leave the form item
  // inside DynamoDB's 400 KB however long the names and labels are (100 four-byte characters
  // each, a 255-character label from an ads platform).
  let schemaBytes = form.origin === "webhook" ? Buffer.byteLength(JSON.stringify(form.fields)) : 0;
  for (const [key, value] of unmatched) {
    const text = first(value);
    const byType = (type: FieldType, test: (v: string) => boolean) => {
      const candidates = fields.filter(([k, f]) => f.type === type && !mapped.has(k));
      return candidates.length === 1 && test(text) ? candidates[0]?.[0] : undefined;
    };
    const target = byType("email", looksLikeEmail) ?? byType("phone", looksLikePhone);
    if (target) {
      assign(target, value);
      continue;
    }
    // A key that lost its field to another key keeps its own name (suffixed if that is taken).
    const taken = (k: string) => Object.hasOwn(data, k) || (k !== key && Object.hasOwn(incoming, k));
    let storedKey = key;
    for (let n = 2; taken(storedKey); n++) storedKey = `${key}_${n}`;
    data[storedKey] = value;
    // An auto-created form stops growing at 500 fields (a sender with ever-new keys would
    // otherwise grow its item past DynamoDB's 400 KB); later keys are still stored.
    const room = fields.length + Object.keys(newFields).length < INTAKE_LIMITS.formFields;
    if (form.origin === "webhook" && room && !Object.hasOwn(form.fields, storedKey)) {
      // `order` keeps arrival order; concurrent additions may share a number, which is harmless.
      const field: FormField = {
        label: (hints.labels && Object.hasOwn(hints.labels, key) ? hints.labels[key] : undefined) ?? labelFromKey(key),
        type: (hints.types && Object.hasOwn(hints.types, key) ? hints.types[key] : undefined) ?? inferFieldType(key, value),
        required: false,
        order: order + 1,
      };
      const bytes = Buffer.byteLength(JSON.stringify({ [storedKey]: field }));
      if (schemaBytes + bytes <= INTAKE_LIMITS.formSchemaBytes) {
        schemaBytes += bytes;
        order += 1;
        newFields[storedKey] = field;
        mapped.add(storedKey);
      }
    }
  }
  return { data, fieldsMapped: [...mapped], newFields };
}
