// Jest transformer: TypeScript to ESM with the project's own esbuild (no Babel, no ts-jest).
// Type checking is `npm run typecheck`'s job; this only strips types, fast.
const { transformSync } = require("esbuild");

module.exports = {
  process(source, filename, options) {
    const result = transformSync(source, {
      loader: "ts",
      format: options.supportsStaticESM ? "esm" : "cjs",
      target: "node20",
      sourcemap: "inline",
      sourcefile: filename,
    });
    return { code: result.code };
  },
};
