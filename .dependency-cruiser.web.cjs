/**
 * The dashboard's zones (docs/dashboard.md, "Layout"), checked by `npm run lint` beside the
 * service's own rules (.dependency-cruiser.cjs). Type-only imports count (tsPreCompilationDeps),
 * and so do lazy `import()`s. Each rule's comment is what a violation means.
 *
 *   router.tsx, main.tsx   mount the app
 *   app/                   pages that join the parts of two features
 *   features/<feature>/    one feature's pages, parts and queries; imports no other feature
 *   components/, lib/      shared by every feature: the sign-out button; session, access, query client, formatting
 *   components/ui/         primitives
 *   api/                   the typed client, the error messages, the query keys, the schema's named types
 */
const SHARED = "^web/src/(api|lib|components)/";
const CALLERS = "^web/src/(app/|features/|router\\.tsx$|main\\.tsx$)";

module.exports = {
  forbidden: [
    {
      name: "web-no-cycle",
      severity: "error",
      comment: "An import cycle: modules that cannot be understood, tested or split into chunks apart. Move what both need down.",
      from: { path: "^web/src/" },
      to: { circular: true },
    },
    {
      name: "feature-imports-no-other-feature",
      severity: "error",
      comment:
        "A feature never imports another feature's folder. A page that shows parts of two features is composed in web/src/app/ (the parts take what they need as props); what every feature needs goes to lib/, api/ or components/.",
      from: { path: "^web/src/features/([^/]+)/" },
      to: { path: "^web/src/features/", pathNot: "^web/src/features/$1/" },
    },
    {
      name: "features-import-no-app",
      severity: "error",
      comment:
        "app/, router.tsx and main.tsx compose and mount the features: a feature importing them depends on its own callers.",
      from: { path: "^web/src/features/" },
      to: { path: "^web/src/(app/|router\\.tsx$|main\\.tsx$)" },
    },
    {
      name: "app-imports-no-router",
      severity: "error",
      comment: "app/ pages are mounted by router.tsx; they read their route with getRouteApi, never by importing the route tree.",
      from: { path: "^web/src/app/" },
      to: { path: "^web/src/(router|main)\\.tsx$" },
    },
    {
      name: "shared-code-knows-no-feature",
      severity: "error",
      comment:
        "api/, lib/ and components/ are shared by every feature: they know none of them, nor the app that composes them. Pass what they need in.",
      from: { path: SHARED },
      to: { path: CALLERS },
    },
    {
      name: "ui-primitives-are-leaves",
      severity: "error",
      comment: "components/ui/ holds primitives: markup and behaviour only, no API call, no session, no formatting of our data.",
      from: { path: "^web/src/components/ui/" },
      to: { path: "^web/src/", pathNot: "^web/src/components/ui/" },
    },
    {
      name: "the-api-layer-is-the-bottom",
      severity: "error",
      comment: "api/ is what everything else builds on: it imports nothing else of the dashboard.",
      from: { path: "^web/src/api/" },
      to: { path: "^web/src/", pathNot: "^web/src/api/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    exclude: { path: "^(node_modules|web/dist)" },
  },
};
