/**
 * The direction of Inlet's dependencies (docs/architecture.md), checked by `npm run lint`.
 * Type-only imports count (tsPreCompilationDeps): a cycle through types still ties modules
 * together. Each rule's comment is what a violation means.
 */
/** The leaves every layer may use. */
const LEAVES = "^lib/(config|errors|ids|log|validation)\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "An import cycle: modules that cannot be understood, tested or bundled apart. Move what both need to a leaf.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-imports-no-caller",
      severity: "error",
      comment:
        "lib/ is the library: it must not depend on its callers (functions/, infra/). Declare the narrow type lib needs in lib and have the caller pass it.",
      from: { path: "^lib/" },
      to: { path: "^(functions|infra)/" },
    },
    {
      name: "functions-import-no-infra",
      severity: "error",
      comment: "A Lambda handler must not bundle the CDK app or the local tools.",
      from: { path: "^functions/" },
      to: { path: "^infra/" },
    },
    {
      name: "only-the-store-talks-to-the-table",
      severity: "error",
      comment:
        "lib/store/ is the only code that talks to the table (conventions, item 9): add the access to the entity's store module.",
      from: { path: "^(lib|functions|infra)/", pathNot: "^(lib/store/|lib/aws/dynamodb\\.ts$|infra/local/)" },
      to: { path: "^(lib/aws/dynamodb\\.ts$|node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb)/)" },
    },
    {
      name: "the-store-keeps-its-keys",
      severity: "error",
      comment:
        "Key formats and the generic table calls (keys, item and batch reads, pages, cursors, transactions, counted inserts, optimistic updates) are the store's insides: outside lib/store/ (infra/ derives grants from the keys), call the entity module's named access pattern (docs/data-model.md, \"Access patterns\"), or add one there.",
      from: { path: "^(lib|functions)/", pathNot: "^lib/store/" },
      to: { path: "^lib/store/(keys|items|batch|cursor|pagination|filtered-query|transactions|counted|optimistic)\\.ts$" },
    },
    {
      name: "the-store-imports-no-domain",
      severity: "error",
      comment:
        "The store persists plain shapes it declares itself; a domain module imports them from the store, never the other way.",
      from: { path: "^lib/store/" },
      to: { path: "^lib/", pathNot: `^lib/(store/|aws/)|${LEAVES}` },
    },
    {
      name: "no-lambda-loads-the-openapi-generator",
      severity: "error",
      comment:
        "lib/openapi/ builds the OpenAPI document with zod's JSON-schema conversion: a build tool (npm run openapi), never part of a Lambda bundle. The served document is the committed docs/openapi.json.",
      from: { path: "^functions/" },
      to: { path: "^lib/openapi/" },
    },
    {
      name: "aws-clients-are-leaves",
      severity: "error",
      comment: "lib/aws/ builds clients from config; it knows no domain.",
      from: { path: "^lib/aws/" },
      to: { path: "^lib/", pathNot: `^lib/aws/|${LEAVES}` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|cdk\\.out|web/dist)" },
  },
};
