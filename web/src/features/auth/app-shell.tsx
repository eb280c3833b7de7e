import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { useState } from "react";
import { SignOutButton } from "../../components/sign-out-button";
import { meQuery } from "../../lib/session";

/**
 * The frame of every signed-in page: who is signed in, where to go, and signing out. The main
 * navigation is role-aware: Organizations only for platform admins (`me.platformAdmin`).
 */
export function AppShell() {
  const { data: me } = useQuery(meQuery);
  // On a phone the navigation and the account fold under "Menu" (aria-expanded); a new page folds them again.
  const path = useRouterState({ select: (state) => state.location.pathname });
  const [openOn, setOpenOn] = useState<string | undefined>();
  const open = openOn === path;
  const folded = open ? "flex" : "hidden sm:flex";
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <Link to="/" className="text-lg font-semibold text-slate-900 no-underline dark:text-slate-100">
            Inlet
          </Link>
          <button
            type="button"
            aria-expanded={open}
            aria-controls="main-menu"
            onClick={() => setOpenOn(open ? undefined : path)}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium sm:hidden dark:border-slate-600"
          >
            Menu
          </button>
          <div
            id="main-menu"
            className={`${folded} w-full flex-col gap-3 sm:w-auto sm:flex-1 sm:flex-row sm:items-center sm:justify-between`}
          >
            <nav aria-label="Main" className="flex flex-wrap items-center gap-4">
              <Link to="/" activeOptions={{ exact: true }}>
                Sites
              </Link>
              {/* Everyone has a settings page (their account); what each one offers follows the role. */}
              <Link to="/settings">Settings</Link>
              {me?.platformAdmin && <Link to="/admin/organizations">Organizations</Link>}
            </nav>
            <div className="flex flex-wrap items-center gap-3 text-sm">
              {me && (
                <span>
                  {me.user.name} · {me.organization.name} <span className="text-slate-500 dark:text-slate-400">({me.role})</span>
                </span>
              )}
              <SignOutButton />
            </div>
          </div>
        </div>
      </header>
      {me?.user.emailLost ? (
        <p className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
          The owner of {me.user.email} took that address back, so you can no longer sign in with it.{" "}
          <Link to="/settings/account">Change your email address</Link> while you are signed in.
        </p>
      ) : (
        me &&
        !me.user.emailVerified && (
          <p className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
            Please confirm your email address: we sent you a link.
          </p>
        )
      )}
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}
