import type { FieldType } from "../store/forms";
import type { RawValue } from "../store/shapes";
import { INTAKE_LIMITS } from "./limits";
import { isPlainObject, scalarText, wellFormed } from "./text";

/**
 * The advertising platform's lead-form webhook (spec 2.4; docs/intake.md): its envelope of
 * system fields, its `user_column_data` answers and the secret it carries, turned into fields,
 * labels, types and lead metadata.
 */

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

const snakeCase = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, INTAKE_LIMITS.fieldNameLength);

/** The platform's payload shape: an object with a `user_column_data` list (spec 2.4, rule 2). */
export const isAdsPayload = (json: unknown): json is Record<string, unknown> =>
  isPlainObject(json) && Array.isArray(json.user_column_data);

/** Where the answers go: the field collector (./fields.ts). */
export interface FieldSink {
  add(name: string, value: RawValue): void;
}

/** The lead metadata of an ads payload; its answers are added to `collector`. */
export function normalizeAds(json: Record<string, unknown>, collector: FieldSink): AdsLead {
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
    const label =
      typeof column.column_name === "string"
        ? [...wellFormed(column.column_name).trim()].slice(0, INTAKE_LIMITS.labelLength).join("")
        : "";
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
  const key = Object.entries(json).find(
    ([name, value]) => isSecretField(name) && typeof value === "string" && value !== "",
  )?.[1] as string | undefined;
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
export const isSecretField = (name: string) => {
  const lower = name.toLowerCase();
  return lower === "google_key" || lower === "partner_key";
};

/** The envelope's own keys: every other top-level key is ordinary data. */
export const ADS_ENVELOPE_FIELDS = new Set<string>([...ADS_SYSTEM_FIELDS, "user_column_data", "is_test"]);
