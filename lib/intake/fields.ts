import { AppError } from "../errors";
import { ALL_TOKEN_FIELDS } from "../spam/captcha";
import type { RawValue } from "../store/shapes";
import { ADS_ENVELOPE_FIELDS, type AdsLead, isAdsPayload, isSecretField, normalizeAds } from "./ads-lead";
import { INTAKE_LIMITS, type ParsedBody } from "./limits";
import { charLength, isForbiddenName, isPlainObject, scalarText, wellFormed } from "./text";

export interface NormalizedSubmission {
  data: Record<string, RawValue>;
  /** `_`-prefixed control fields (never stored as data), by name without the underscore. */
  controls: Record<string, string>;
  ignoredFields: string[];
  ads?: AdsLead;
}

class Collector {
  // Without a prototype: no key, whatever it is called, can reach Object.prototype.
  readonly data: Record<string, RawValue> = Object.create(null);
  readonly controls: Record<string, string> = Object.create(null);
  readonly ignoredFields: string[] = [];
  private count = 0;

  /** Records a name that is never stored (once, as sent, capped like any name; the first 50). */
  ignore(rawName: string): void {
    const name = wellFormed(rawName);
    const shown =
      charLength(name) > INTAKE_LIMITS.fieldNameLength ? [...name].slice(0, INTAKE_LIMITS.fieldNameLength).join("") : name;
    if (this.ignoredFields.length < INTAKE_LIMITS.listedNames && !this.ignoredFields.includes(shown))
      this.ignoredFields.push(shown);
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
      this.add(
        path,
        value.map((item) => scalarText(item) ?? ""),
      );
      return;
    }
    const text = scalarText(value);
    if (text !== undefined) this.add(path, text);
  }
}

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
    collector.addMembers(
      Object.fromEntries(
        Object.keys(json)
          .filter((key) => !ADS_ENVELOPE_FIELDS.has(key) && !isSecretField(key))
          .map((key) => [key, json[key]]),
      ),
    );
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
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `The submission's fields take more than ${INTAKE_LIMITS.storedBytes / 1024} KB once decoded`,
    );
  }
  return {
    data: collector.data,
    controls: collector.controls,
    ignoredFields: collector.ignoredFields,
    ...(ads ? { ads } : {}),
  };
}
