import { INTAKE_LIMITS } from "../intake/limits";

/**
 * The import's limits (docs/importing.md, "Limits"; docs/api.md, the import route). A request over a
 * file limit is refused whole (413 IMPORT_TOO_LARGE); a row over a row limit is a problem of its
 * line and never stops the others.
 */
export const IMPORT_LIMITS = {
  /** The request body as received (gzipped or not): a Lambda request payload is at most 6 MB, base64 inflates by 4/3. */
  bodyBytes: 4 * 1024 * 1024,
  /** The file's text once decompressed (gunzip runs with this as its maximum output length). */
  fileBytes: 20 * 1024 * 1024,
  /** Data rows of one file. */
  rows: 100_000,
  /** Columns of one file: more is no form export. */
  columns: 1_000,
  /** A CSV record's characters (csv-parse's max_record_size): a longer one is a problem of its line. */
  recordChars: 2 * 1024 * 1024,
  /** A row's non-empty imported values, as intake's field limit. */
  fields: INTAKE_LIMITS.fields,
  /** A value's characters, as intake's. */
  valueLength: INTAKE_LIMITS.valueLength,
  /** A field key's characters, as intake's. */
  fieldNameLength: INTAKE_LIMITS.fieldNameLength,
  /** The row's stored data as UTF-8 JSON, as intake's: the item stays inside DynamoDB's 400 KB. */
  storedBytes: INTAKE_LIMITS.storedBytes,
  /** Problems kept and answered (the counts count them all). */
  problems: 100,
  /** Characters of a file name shown in the job. */
  fileName: 255,
  /** Imports listed per form. */
  listed: 20,
} as const;
