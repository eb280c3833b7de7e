// Validation uses zod's tree-shakable "mini" build: the full build adds ~440 KB to every
// bundle and 20-30 ms to every cold start. Callers import this module as a namespace
// (`import * as z from ".../validation"`): re-exporting a `z` object instead would make esbuild
// keep all of zod (every locale, the JSON-schema code) in every bundle.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";

/**
 * A module-level schema that a bundle leaves out when none of its code uses the schema. zod's
 * constructors are calls, which esbuild must keep (they might have effects), so a module of
 * schemas several routes share was built whole at the cold start of every function importing
 * any of it. A call of `shared` marked pure (a `@__PURE__` comment before it) whose argument
 * builds the schema: esbuild drops an unused one, and a used one is built at import as before
 * (docs/performance.md, section 1).
 */
export const shared = <T>(build: () => T): T => build();
