import { Link, Outlet } from "@tanstack/react-router";
import { can, useMe } from "../../lib/access";

const tab =
  "border-b-2 border-transparent px-3 py-2 text-sm font-medium no-underline text-slate-700 hover:text-slate-950 data-[status=active]:border-indigo-700 data-[status=active]:text-slate-950 dark:text-slate-300 dark:hover:text-white dark:data-[status=active]:border-indigo-300 dark:data-[status=active]:text-white";

/**
 * The settings pages under one sub-navigation. Every page is listed for everyone: a page a role
 * or plan does not allow says why when opened (API keys), rather than vanishing unexplained;
 * the audit log alone is shown to owners and admins only (a member opening its address is told why).
 */
export function SettingsLayout() {
  const me = useMe();
  return (
    <>
      <nav aria-label="Settings" className="mb-6 flex flex-wrap gap-x-2 border-b border-slate-200 dark:border-slate-700">
        <Link to="/settings/api-keys" className={tab}>
          API keys
        </Link>
        <Link to="/settings/team" className={tab}>
          Team
        </Link>
        <Link to="/settings/tags" className={tab}>
          Tags
        </Link>
        <Link to="/settings/account" className={tab}>
          Account
        </Link>
        <Link to="/settings/privacy" className={tab}>
          Privacy
        </Link>
        {/* Owners and admins only: the log names every member and where they connected from. */}
        {can(me, "audit_log.read") && (
          <Link to="/settings/audit-log" className={tab}>
            Audit log
          </Link>
        )}
      </nav>
      <Outlet />
    </>
  );
}
