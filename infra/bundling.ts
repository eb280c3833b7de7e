import type { BuildOptions } from "esbuild";

/**
 * How every function is bundled, in one place: `InletFunction` (infra/inlet-function.ts) hands
 * these to NodejsFunction, and the bench and the bundle-size test (test/bench, test/local-stack/perf) build
 * the same bundles through esbuild's JS API with `esbuildOptions()`, so what is measured is what
 * `cdk synth` ships.
 *
 * - ESM, minified, AWS SDK bundled in (`bundleAwsSDK`): the tree-shaken clients load faster at
 *   cold start than the runtime's full copy, and the SDK version is the one we test.
 * - Source maps are written (uploaded for offline symbolication) without their sources.
 * - The banner gives the ESM bundle a `require`: some AWS SDK dependencies still call it.
 */
export const LAMBDA_BUNDLING = {
  minify: true,
  bundleAwsSDK: true,
  sourceMap: true,
  sourcesContent: false,
  format: "esm",
  target: "node22",
  mainFields: ["module", "main"],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

/**
 * esbuild's JS API options for exactly the command NodejsFunction runs with LAMBDA_BUNDLING
 * (aws-cdk-lib/aws-lambda-nodejs, `Bundling.buildEsbuildArgs`): `--bundle --platform=node
 * --target --format --minify --sourcemap --sources-content=false --banner:js --main-fields`,
 * nothing external (`bundleAwsSDK: true` drops the default `@aws-sdk/*` externals), no
 * `--tsconfig` (esbuild finds tsconfig.json itself, as under cdk synth). Entry points and the
 * output location are the caller's (NodejsFunction writes `index.mjs`).
 */
export function esbuildOptions(): BuildOptions {
  return {
    bundle: true,
    platform: "node",
    target: LAMBDA_BUNDLING.target,
    format: LAMBDA_BUNDLING.format,
    minify: LAMBDA_BUNDLING.minify,
    sourcemap: LAMBDA_BUNDLING.sourceMap,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    banner: { js: LAMBDA_BUNDLING.banner },
    external: LAMBDA_BUNDLING.bundleAwsSDK ? [] : ["@aws-sdk/*"],
    outExtension: { ".js": LAMBDA_BUNDLING.format === "esm" ? ".mjs" : ".js" },
  };
}
