// Validation uses zod's tree-shakable "mini" build: the full build adds ~440 KB to every
// bundle and 20-30 ms to every cold start. Callers import this module as a namespace
// (`import * as z from ".../validation"`): re-exporting a `z` object instead would make esbuild
// keep all of zod (every locale, the JSON-schema code) in every bundle.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
