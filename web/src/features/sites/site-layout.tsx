import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, Outlet } from "@tanstack/react-router";
import { apiError } from "../../api/client";
import { Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { siteQuery } from "./queries";

const route = getRouteApi("/app/sites/$siteId");

/** The sections of a site, in the order of its sub-navigation: each is a child route of the site's layout. */
export const SITE_SECTIONS = [
  { label: "Overview", to: "/sites/$siteId", exact: true },
  { label: "Sources", to: "/sites/$siteId/sources", exact: false },
  { label: "Forms", to: "/sites/$siteId/forms", exact: false },
  { label: "Settings", to: "/sites/$siteId/settings", exact: false },
] as const;

const sectionLink =
  "-mb-px border-b-2 px-3 py-2 text-sm font-medium text-slate-700 no-underline hover:text-slate-950 dark:text-slate-300 dark:hover:text-white";
// The current section is marked by weight and an underline bar as well as colour, and by aria-current.
const currentLink = "border-indigo-700 font-semibold text-slate-950 dark:border-indigo-300 dark:text-white";

/** Every page of a site: its name and domain, its sections, then the section's page. */
export function SiteLayout() {
  const { siteId } = route.useParams();
  const site = useQuery(siteQuery(siteId));
  if (site.isPending) return <Loading />;
  if (site.isError) {
    const notFound = apiError(site.error)?.status === 404;
    return (
      <div role="alert" className="space-y-2">
        <p className="font-medium">
          {notFound ? "This site does not exist, or it belongs to another organization." : site.error.message}
        </p>
        <p>
          <Link to="/">Back to your sites</Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="mb-6 border-b border-slate-200 dark:border-slate-700">
        <p className="text-lg font-semibold">
          <span className="sr-only">Site: </span>
          {site.data.name}
          {site.data.domain && (
            <Muted as="span" className="ml-2 font-normal">
              {site.data.domain}
            </Muted>
          )}
          {!site.data.isActive && (
            <span className="ml-2 text-sm font-normal text-amber-800 dark:text-amber-200">inactive: refuses submissions</span>
          )}
        </p>
        <nav aria-label="Site" className="mt-2 flex flex-wrap gap-1">
          {SITE_SECTIONS.map((section) => (
            <Link
              key={section.to}
              to={section.to}
              params={{ siteId }}
              activeOptions={{ exact: section.exact, includeSearch: false }}
              className={sectionLink}
              activeProps={{ className: currentLink, "aria-current": "page" }}
              inactiveProps={{ className: "border-transparent" }}
            >
              {section.label}
            </Link>
          ))}
        </nav>
      </div>
      <Outlet />
    </>
  );
}
