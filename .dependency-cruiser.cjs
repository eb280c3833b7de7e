/**
 * The direction of Inlet's dependencies (docs/architecture.md), checked by `npm run lint`.
 * Type-only imports count (tsPreCompilationDeps): a cycle through types still ties modules
 * together. Each rule's comment is what a violation means.
 */
/** The leaves every layer may use. */
const LEAVES = "^lib/(config|cursor|deadline|errors|ids|log|validation|queue-message)\\.ts$";

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
      comment:
        "A Lambda handler must not bundle the CDK app, the local tools or the OpenAPI generator (infra/openapi/, with zod's JSON-schema conversion: a build tool, npm run openapi; the served document is the committed docs/openapi.json).",
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
    // The pipeline drives the delivery machinery, never the reverse, so each can change without
    // the other; neither calls up into a resource module (docs/architecture.md).
    {
      name: "outbound-never-imports-the-pipeline",
      severity: "error",
      comment:
        "lib/outbound/ is the delivery machinery the pipeline drives: lib/pipeline/ imports it, never the reverse. What both sides of the queue share (the message kinds, RetryLater) is the leaf lib/queue-message.ts.",
      from: { path: "^lib/outbound/" },
      to: { path: "^lib/pipeline/" },
    },
    {
      name: "outbound-is-delivery-machinery-only",
      severity: "error",
      comment:
        "lib/outbound/ sends deliveries and knows no caller: apart from the pipeline (outbound-never-imports-the-pipeline) it imports only itself, the store, the AWS clients, metrics, the leaves and the pure address check (lib/email-address.ts), never a principal, a resource module or another concern. The API's side of outbound webhooks (endpoints, changes, replays, test events) is lib/outbound-webhooks/, which imports lib/outbound/.",
      from: { path: "^lib/outbound/" },
      // lib/email-address.ts: the pure address check config.ts (a leaf) also uses; a chat message finds the submitter's address with it.
      to: { path: "^lib/", pathNot: `^lib/(outbound|pipeline|store|aws|metrics)/|^lib/email-address\\.ts$|${LEAVES}` },
    },
    {
      name: "pipeline-imports-only-outbound-and-notifications",
      severity: "error",
      comment:
        "lib/pipeline/ runs the queue's messages: of the other concerns it imports the delivery machinery (lib/outbound/) and the notification emails, and it never calls up into a resource module: the registry that names each message's handler (lib/consumer-handlers.ts) sits above it. Its one import above is lib/leads.ts, the lead rules it applies (pure functions that read nothing).",
      from: { path: "^lib/pipeline/" },
      to: { path: "^lib/", pathNot: `^lib/(pipeline|outbound|notifications|store|aws|metrics)/|^lib/leads\\.ts$|${LEAVES}` },
    },
    {
      name: "queue-message-is-a-leaf",
      severity: "error",
      comment:
        "lib/queue-message.ts is what producers and the consumer of the intake queue share; it imports nothing of lib/, so sharing it ties neither to the other.",
      from: { path: "^lib/queue-message\\.ts$" },
      to: { path: "^lib/" },
    },
    {
      name: "spam-and-notifications-import-no-intake",
      severity: "error",
      comment:
        "Intake uses the spam signals and the notifications render what intake stored, never the reverse: a shape they share (RawValue) is imported from where it is defined (lib/store/shapes.ts), not through lib/intake/.",
      from: { path: "^lib/(spam|notifications)/" },
      to: { path: "^lib/intake/" },
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
