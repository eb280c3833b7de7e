import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from "@tanstack/react-router";
import { ApiError } from "./api/client";
import { DELIVERY_STATUSES, type DeliveryStatus } from "./api/types";
import { AppShell } from "./features/auth/app-shell";
import { SignIn } from "./features/auth/sign-in";
import { keptAnchor } from "./lib/format";
import { meQuery } from "./lib/session";
import { isStatus, type Status } from "./lib/statuses";

/*
 * The routes, and nothing else: each page is a lazy chunk of its own (docs/performance.md,
 * dashboard weight), from its feature's folder, or from app/ when it joins two features.
 *
 * Search params are typed by plain validator functions (TanStack Router's own form): three
 * optional strings and a flag need no schema library, and zod in the entry chunk weighed
 * ~4 KB gzipped (docs/performance.md, dashboard weight). Anything malformed is dropped.
 */
type Search = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** Filters of an inbox or spam folder: in the URL, so a view is a link to bookmark or share. */
const listSearch = (search: Search): { q?: string | undefined; from?: string | undefined; to?: string | undefined } => ({
  q: text(search.q),
  from: text(search.from),
  to: text(search.to),
});

/** The inbox's filters: the folder's, and triage's status, owner (`me`, `none`, a userId), tag id and unread (docs/triage.md). */
const inboxSearch = (
  search: Search,
): ReturnType<typeof listSearch> & {
  status?: Status | undefined;
  owner?: string | undefined;
  tag?: string | undefined;
  unread?: boolean | undefined;
} => ({
  ...listSearch(search),
  status: isStatus(search.status) ? search.status : undefined,
  owner: text(search.owner),
  tag: text(search.tag),
  unread: search.unread === true || search.unread === "true" ? true : undefined,
});

/** Where a person goes back to once signed in. */
const returnSearch = (search: Search): { redirect?: string | undefined } => ({ redirect: text(search.redirect) });

/** The archived tab of a site's sources. */
const archivedSearch = (search: Search): { archived?: boolean | undefined } => ({
  archived: search.archived === true ? true : undefined,
});

/** The delivery log's status filter (`?status=failed`): one of the API's statuses, else none. */
const deliveryLogSearch = (search: Search): { status?: DeliveryStatus | undefined } => ({
  status: DELIVERY_STATUSES.find((status) => status === search.status),
});

/** The audit log's filters (`?action=api_key.created&actor=usr_…&from=2026-11-01&to=2026-11-30`); the API checks each. */
const auditLogSearch = (
  search: Search,
): { action?: string | undefined; actor?: string | undefined; from?: string | undefined; to?: string | undefined } => ({
  action: text(search.action),
  actor: text(search.actor),
  from: text(search.from),
  to: text(search.to),
});

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: Outlet });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: returnSearch,
  component: SignIn,
});
const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-up",
  component: lazyRouteComponent(() => import("./features/auth/sign-up"), "SignUp"),
});
/** The invite link (`/invite#token=…`): the token stays in the fragment, never sent to a server. */
const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invite",
  component: lazyRouteComponent(() => import("./features/auth/sign-up"), "InviteSignUp"),
});
const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/verify-email",
  component: lazyRouteComponent(() => import("./features/auth/email-links"), "VerifyEmail"),
});
/** A forgotten password: ask for the link, then choose a new one from it (`/reset-password#token=…`). */
const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  component: lazyRouteComponent(() => import("./features/auth/reset-password"), "ForgotPassword"),
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  component: lazyRouteComponent(() => import("./features/auth/reset-password"), "ResetPassword"),
});
/** The reclaim link (`/reclaim-email#token=…`), and a verification email's "this was not me". */
const reclaimRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reclaim-email",
  component: lazyRouteComponent(() => import("./features/auth/reclaim-email"), "ReclaimEmail"),
});

/** Every page behind it needs a session; without one, sign-in first and then back here. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  component: AppShell,
  beforeLoad: async ({ context, location }) => {
    try {
      return { me: await context.queryClient.ensureQueryData(meQuery) };
    } catch (error) {
      if (error instanceof ApiError && error.signedOut) {
        throw redirect({ to: "/sign-in", search: { redirect: location.href + keptAnchor(location.hash) } });
      }
      throw error;
    }
  },
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./app/home-page"), "HomePage"),
});
/** A site's layout (its name and sections); its index is the overview. */
const siteRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/sites/$siteId",
  component: lazyRouteComponent(() => import("./features/sites/site-layout"), "SiteLayout"),
});
const siteOverviewRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./features/overview/overview-page"), "OverviewPage"),
});
const sourcesRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: "/sources",
  validateSearch: archivedSearch,
  component: lazyRouteComponent(() => import("./app/sources-page"), "SourcesPage"),
});
/** A form's layout (its name and sub-navigation); its index is the inbox. */
const formLayoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/forms/$formId",
  component: lazyRouteComponent(() => import("./features/forms/form-layout"), "FormLayout"),
});
const inboxRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/",
  validateSearch: inboxSearch,
  component: lazyRouteComponent(() => import("./features/inbox/inbox-page"), "InboxPage"),
});
const spamRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/spam",
  validateSearch: listSearch,
  component: lazyRouteComponent(() => import("./app/spam-page"), "SpamPage"),
});
const siteFormsRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: "/forms",
  validateSearch: archivedSearch,
  component: lazyRouteComponent(() => import("./features/forms/forms-page"), "FormsPage"),
});
const formFieldsRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/fields",
  component: lazyRouteComponent(() => import("./features/forms/fields-page"), "FieldsPage"),
});
const formSettingsRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("./app/form-settings-page"), "FormSettingsPage"),
});
/** A form's Import page (docs/importing.md): another service's export, previewed, then imported in the background. */
const formImportRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/import",
  component: lazyRouteComponent(() => import("./app/import-page"), "ImportPage"),
});
const submissionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/submissions/$submissionId",
  component: lazyRouteComponent(() => import("./app/submission-page"), "SubmissionPage"),
});

/** A site's settings (name, domain, prefix, captcha, erasure, deletion), a section of the site layout. */
const siteSettingsRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("./app/site-settings-page"), "SiteSettingsPage"),
});

/** A form's outbound webhooks and each endpoint's delivery log, sections of the form layout. */
const outboundWebhooksRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/webhooks",
  component: lazyRouteComponent(() => import("./app/webhooks-page"), "WebhooksPage"),
});
const deliveryLogRoute = createRoute({
  getParentRoute: () => formLayoutRoute,
  path: "/webhooks/$endpointId",
  validateSearch: deliveryLogSearch,
  component: lazyRouteComponent(() => import("./app/delivery-log-page"), "DeliveryLogPage"),
});

/** Settings: a sub-navigation (API keys | Team | Account) over its pages; `/settings` opens the account. */
const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("./features/account/settings-layout"), "SettingsLayout"),
});
const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/settings/account" });
  },
});
const apiKeysRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/api-keys",
  component: lazyRouteComponent(() => import("./features/api-keys/api-keys-page"), "ApiKeysPage"),
});
const teamRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/team",
  component: lazyRouteComponent(() => import("./app/team-page"), "TeamPage"),
});
const accountRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/account",
  component: lazyRouteComponent(() => import("./features/account/account-page"), "AccountPage"),
});
/** The organization's tags: anyone reads them; members who edit forms change them. */
const tagsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/tags",
  component: lazyRouteComponent(() => import("./features/tags/tags-page"), "TagsPage"),
});
/** A person's data across the organization: an access request's file, an erasure (owners and admins). */
const privacyRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/privacy",
  component: lazyRouteComponent(() => import("./features/privacy/privacy-page"), "PrivacyPage"),
});
/** Owners and admins (the tab is shown to them alone; anyone else who comes here is told why). */
const auditLogRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/audit-log",
  validateSearch: auditLogSearch,
  component: lazyRouteComponent(() => import("./features/audit-log/audit-log-page"), "AuditLogPage"),
});
/** Platform admins only (the link is shown to them alone; anyone else who comes here is told why). */
const organizationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/admin/organizations",
  validateSearch: (search: Search): { q?: string | undefined } => ({ q: text(search.q) }),
  component: lazyRouteComponent(() => import("./features/admin/organizations-page"), "OrganizationsPage"),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  signUpRoute,
  inviteRoute,
  verifyRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  reclaimRoute,
  appRoute.addChildren([
    homeRoute,
    siteRoute.addChildren([siteOverviewRoute, sourcesRoute, siteFormsRoute, siteSettingsRoute]),
    formLayoutRoute.addChildren([
      inboxRoute,
      spamRoute,
      formFieldsRoute,
      formSettingsRoute,
      outboundWebhooksRoute,
      deliveryLogRoute,
      formImportRoute,
    ]),
    submissionRoute,
    settingsRoute.addChildren([
      settingsIndexRoute,
      apiKeysRoute,
      teamRoute,
      accountRoute,
      privacyRoute,
      auditLogRoute,
      tagsRoute,
    ]),
    organizationsRoute,
  ]),
]);

/** The router over the route tree; its loaders and guards read the app's one QueryClient from the context. */
export const createAppRouter = (queryClient: QueryClient) =>
  createRouter({ routeTree, context: { queryClient }, defaultPreload: "intent", scrollRestoration: true });

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
