import { AppError } from "../errors";

/** Intake limits (docs/intake.md). A body over them is refused whole, never stored truncated. */
export const INTAKE_LIMITS = {
  /** Body bytes as sent (after API Gateway's base64): far above any form, far below DynamoDB's 400 KB item. */
  bodyBytes: 256 * 1024,
  /** Distinct data fields; a repeated key (a list) counts once. */
  fields: 200,
  /** Characters (Unicode code points) of a field name, after `a__b` → `a.b` and `name[]` → `name`. */
  fieldNameLength: 100,
  /** Characters (Unicode code points) of one value. */
  valueLength: 10_000,
  /** Values of one list field. */
  listItems: 100,
  /** Nesting of JSON arrays and objects. */
  jsonDepth: 32,
  /**
   * The decoded fields as UTF-8 JSON. Decoding can grow a body: a Windows-1252 byte becomes up
   * to 3 UTF-8 bytes, so a 256 KB body could otherwise exceed DynamoDB's 400 KB item limit.
   */
  storedBytes: 300 * 1024,
  /** Names listed in metadata.ignoredFields and metadata.droppedFiles (the first ones). */
  listedNames: 50,
  /** Fields an auto-created form gains from submissions; keys beyond are stored, not added. */
  formFields: 500,
  /**
   * Bytes of an auto-created form's field map (its JSON): the form stops gaining fields beyond,
   * so its item stays well inside DynamoDB's 400 KB whatever the names (500 fields of 100
   * four-byte characters would not fit otherwise).
   */
  formSchemaBytes: 256 * 1024,
  /** Characters of a field label taken from a sender (the ads platform's column_name). */
  labelLength: 255,
} as const;

export interface ParsedBody {
  /** The body's top-level JSON value (big integers kept as strings), for JSON bodies. */
  json?: unknown;
  /** Name/value pairs in order, for form bodies (urlencoded and multipart). */
  entries?: [string, string][];
  /** Names of file fields in a multipart body: dropped, never stored. */
  droppedFiles: string[];
}

export const invalidBody = (message: string) => new AppError("INVALID_BODY", message);
