// Validation uses zod's tree-shakable "mini" build: the full build adds ~440 KB to every
// bundle and 20-30 ms to every cold start (see docs/performance.md once measured).
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

z.config(en());

export { z };
