import { ALL_TOKEN_FIELDS } from "../spam/captcha";
import { AppError } from "../errors";
import type { FieldType } from "../store/forms";
import { INTAKE_LIMITS, type ParsedBody, type RawValue } from "./limits";

/**
 * Names that could reach an object's prototype if a key or a path were ever followed: any name
 * containing `__proto__`, and any with `constructor` or `prototype` as one of its segments
 * (between dots, double underscores or brackets). Dropped and listed in metadata.ignoredFields.
 */
export function isForbiddenName(name: string): boolean {
  if (name.includes("__proto__")) return true;
  return name.split(/\.|__|\[|\]/).some((segment) => segment === "constructor" || segment === "prototype");
}

/**
 * Lone UTF-16 surrogates (JSON's `"\ud800"`) have no UTF-8 form, and SQS refuses the
 * noncharacters U+FFFE and U+FFFF in a message (the stream record of the submission could never
 * reach the queue): each becomes U+FFFD before storage.
 */
export const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, "\uFFFD");

/** Length in characters (Unicode code points), as the limits count it. */
export function charLength(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogates++;
        i++;
      }
    }
  }
  return text.length - surrogates;
}

/** Advertising-platform system fields kept in metadata, never as form fields (spec 2.4). */
const ADS_SYSTEM_FIELDS = [
  "lead_id",
  "campaign_id",
  "form_id",
  "gcl_id",
  "adgroup_id",
  "creative_id",
  "asset_group_id",
  "lead_submit_time",
  "lead_stage",
  "api_version",
] as const;

/** Spec 2.4's column ids and the platform's other contact ids, with the field each fills. */
export const ADS_COLUMNS: Readonly<Record<string, { key: string; label: string; type: FieldType }>> = {
  FULL_NAME: { key: "full_name", label: "Full name", type: "name" },
  FIRST_NAME: { key: "first_name", label: "First name", type: "name" },
  LAST_NAME: { key: "last_name", label: "Last name", type: "name" },
  EMAIL: { key: "email", label: "Email", type: "email" },
  PHONE_NUMBER: { key: "phone", label: "Phone", type: "phone" },
  COMPANY_NAME: { key: "company", label: "Company", type: "text" },
  STREET_ADDRESS: { key: "street_address", label: "Street address", type: "address" },
  CITY: { key: "city", label: "City", type: "text" },
  STATE: { key: "state", label: "State", type: "text" },
  REGION: { key: "region", label: "Region", type: "text" },
  POSTAL_CODE: { key: "postal_code", label: "Postal code", type: "text" },
  COUNTRY: { key: "country", label: "Country", type: "text" },
  WORK_EMAIL: { key: "work_email", label: "Work email", type: "email" },
  WORK_PHONE: { key: "work_phone", label: "Work phone", type: "phone" },
  JOB_TITLE: { key: "job_title", label: "Job title", type: "text" },
};

export interface AdsLead {
  /** The secret, when the payload carries it (`google_key`, `Google_key` or `partner_key`). */
  key?: string;
  leadId?: string;
  isTest: boolean;
  /** System fields for submission metadata; 64-bit ids as exact strings. */
  metadata: Record<string, string | boolean>;
  /** Field labels the platform sent (`column_name`), by field key. */
  labels: Record<string, string>;
  /** Field types the column ids imply (EMAIL is an email field whatever its value), by field key. */
  types: Record<string, FieldType>;
}

export interface NormalizedSubmission {
  data: Record<string, RawValue>;
  /** `_`-prefixed control fields (never stored as data), by name without the underscore. */
  controls: Record<string, string>;
  ignoredFields: string[];
  ads?: AdsLead;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function scalarText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

const snakeCase = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, INTAKE_LIMITS.fieldNameLength);

/** The platform's payload shape: an object with a `user_column_data` list (spec 2.4, rule 2). */
export const isAdsPayload = (json: unknown): json is Record<string, unknown> =>
  isPlainObject(json) && Array.isArray(json.user_column_data);

class Collector {
  // Without a prototype: no key, whatever it is called, can reach Object.prototype.
  readonly data: Record<string, RawValue> = Object.create(null);
  readonly controls: Record<string, string> = Object.create(null);
  readonly ignoredFields: string[] = [];
  private count = 0;

  /** Records a name that is never stored (once, as sent, capped like any name; the first 50). */
  ignore(rawName: string): void {
    const name = wellFormed(rawName);
    const shown = charLength(name) > INTAKE_LIMITS.fieldNameLength ? [...name].slice(0, INTAKE_LIMITS.fieldNameLength).join("") : name;
    if (this.ignoredFields.length < INTAKE_LIMITS.listedNames && !this.ignoredFields.includes(shown)) this.ignoredFields.push(shown);
  }

  add(rawName: string, rawValue: RawValue): void {
    let name = wellFormed(rawName).trim();
    const value = Array.isArray(rawValue) ? rawValue.map(wellFormed) : wellFormed(rawValue);
    if (name === "") return;
    if (isForbiddenName(name)) {
      this.ignore(name);
      return;
    }
    // Zapier flattens nested keys with double underscores; JSON nesting is flattened with dots:
    // both store as `a.b`, so one form field matches whichever way a sender nests.
    if (!name.startsWith("_")) name = name.replace(/__/g, ".");
    if (name.endsWith("[]") && name.length > 2) name = name.slice(0, -2);
    if (charLength(name) > INTAKE_LIMITS.fieldNameLength) {
      throw new AppError("FIELD_NAME_TOO_LONG", `A field name is longer than ${INTAKE_LIMITS.fieldNameLength} characters`);
    }
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (charLength(v) > INTAKE_LIMITS.valueLength) {
        throw new AppError(
          "FIELD_VALUE_TOO_LONG",
          `The value of ${[...name].slice(0, 40).join("")} is longer than ${INTAKE_LIMITS.valueLength} characters`,
        );
      }
    }
    if (name.startsWith("_")) {
      this.controls[name.slice(1).toLowerCase()] ??= values[0] ?? "";
      return;
    }
    const existing = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
    if (existing === undefined) {
      if (++this.count > INTAKE_LIMITS.fields) {
        throw new AppError("TOO_MANY_FIELDS", `A submission has at most ${INTAKE_LIMITS.fields} fields`);
      }
      this.data[name] = Array.isArray(value) || rawName.trim().endsWith("[]") ? [...values] : (values[0] ?? "");
    } else {
      // A repeated key becomes a list (checkbox groups, multi-selects).
      this.data[name] = [...(Array.isArray(existing) ? existing : [existing]), ...values];
    }
    const stored = this.data[name];
    if (Array.isArray(stored) && stored.length > INTAKE_LIMITS.listItems) {
      throw new AppError("TOO_MANY_FIELDS", `A field has at most ${INTAKE_LIMITS.listItems} values`);
    }
  }

  /** A JSON object's members as fields; a forbidden name is dropped before anything below it is looked at. */
  addMembers(object: Record<string, unknown>, prefix = "", depth = 0): void {
    for (const [key, inner] of Object.entries(object)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (isForbiddenName(key.trim())) this.ignore(path);
      else this.addJson(path, inner, depth);
    }
  }

  /** Nested objects flatten to dotted keys (`address.city`); lists of scalars stay lists. */
  addJson(path: string, value: unknown, depth = 0): void {
    if (value === null || value === undefined) return;
    if (isPlainObject(value) && depth < 4) {
      this.addMembers(value, path, depth + 1);
      return;
    }
    if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")) {
      this.add(path, value.map((item) => scalarText(item) ?? ""));
      return;
    }
    const text = scalarText(value);
    if (text !== undefined) this.add(path, text);
  }
}

function normalizeAds(json: Record<string, unknown>, collector: Collector): AdsLead {
  const metadata: Record<string, string | boolean> = {};
  for (const field of ADS_SYSTEM_FIELDS) {
    const text = scalarText(json[field]);
    if (text !== undefined) metadata[field] = wellFormed(text);
  }
  const isTest = json.is_test === true || json.is_test === "true";
  metadata.is_test = isTest;
  const labels: Record<string, string> = Object.create(null);
  const types: Record<string, FieldType> = Object.create(null);
  for (const column of json.user_column_data as unknown[]) {
    if (!isPlainObject(column)) continue;
    const id = typeof column.column_id === "string" ? column.column_id.trim() : "";
    const label = typeof column.column_name === "string" ? [...wellFormed(column.column_name).trim()].slice(0, INTAKE_LIMITS.labelLength).join("") : "";
    const value = scalarText(column.string_value) ?? "";
    const known = Object.hasOwn(ADS_COLUMNS, id.toUpperCase()) ? ADS_COLUMNS[id.toUpperCase()] : undefined;
    // Custom questions carry free-form ids: stored as text fields named after the id. An answer
    // without an id is named after its label, and one without either is still kept.
    const key = known?.key ?? (snakeCase(id) || snakeCase(label) || "answer");
    collector.add(key, value);
    const shownLabel = label || known?.label;
    if (shownLabel && !Object.hasOwn(labels, key)) labels[key] = shownLabel;
    if (known && !Object.hasOwn(types, key)) types[key] = known.type;
  }
  const key = Object.entries(json).find(([name, value]) => isSecretField(name) && typeof value === "string" && value !== "")?.[1] as
    | string
    | undefined;
  return {
    ...(key ? { key } : {}),
    ...(typeof metadata.lead_id === "string" && metadata.lead_id ? { leadId: metadata.lead_id } : {}),
    isTest,
    metadata,
    labels,
    types,
  };
}

/**
 * The body field that carries the secret: the spec's `partner_key`, the platform's `google_key`,
 * and `Google_key` as its test tool spells it (any spelling of the two, so a secret is never
 * stored as data).
 */
const isSecretField = (name: string) => {
  const lower = name.toLowerCase();
  return lower === "google_key" || lower === "partner_key";
};

const ADS_ENVELOPE_FIELDS = new Set<string>([...ADS_SYSTEM_FIELDS, "user_column_data", "is_test"]);

/** Turns a parsed body into submission data, control fields and (for ads payloads) lead metadata. */
export function normalizeSubmission(parsed: ParsedBody): NormalizedSubmission {
  const collector = new Collector();
  let ads: AdsLead | undefined;
  if (parsed.entries) {
    for (const [name, value] of parsed.entries) collector.add(name, value);
  } else if (isAdsPayload(parsed.json)) {
    ads = normalizeAds(parsed.json, collector);
    // Fields the platform may add later are kept as ordinary data rather than failing.
    const json = parsed.json;
    collector.addMembers(Object.fromEntries(Object.keys(json).filter((key) => !ADS_ENVELOPE_FIELDS.has(key) && !isSecretField(key)).map((key) => [key, json[key]])));
  } else if (isPlainObject(parsed.json)) {
    const json = parsed.json;
    const fields = isPlainObject(json.data) ? json.data : json;
    // Beside a `data` object, the top level may still carry control fields and a captcha
    // token (widgets' scripts often add the token next to the data they were given).
    for (const [key, value] of Object.entries(json)) {
      if (key.startsWith("_") || (fields !== json && ALL_TOKEN_FIELDS.includes(key))) {
        collector.add(key, scalarText(value) ?? "");
      }
    }
    collector.addMembers(fields);
  } else {
    throw new AppError("INVALID_BODY", "The JSON body must be an object");
  }
  if (Object.keys(collector.data).length === 0) {
    throw new AppError("NO_DATA_FIELDS", "The submission has no data fields");
  }
  if (Buffer.byteLength(JSON.stringify(collector.data)) > INTAKE_LIMITS.storedBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The submission's fields take more than ${INTAKE_LIMITS.storedBytes / 1024} KB once decoded`);
  }
  return {
    data: collector.data,
    controls: collector.controls,
    ignoredFields: collector.ignoredFields,
    ...(ads ? { ads } : {}),
  };
}
