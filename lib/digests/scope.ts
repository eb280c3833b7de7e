import type { Form } from "../store/forms";
import { listSiteForms } from "../store/forms";
import type { Site } from "../store/sites";
import { listSites } from "../store/sites";

/**
 * An organization's sites and their forms (not archived, not being purged), which the digests
 * and the notification settings page choose from. The reads grow with how many sites and forms
 * the organization has, never with its submissions: a Query of the organization's sites, then
 * the forms index of each site side by side. Bounded: MAX_SITES sites, MAX_FORMS_PER_SITE forms
 * each; what lies beyond is counted as left out, and says so where it is shown.
 */
export const MAX_SITES = 50;
export const MAX_FORMS_PER_SITE = 200;

export interface SiteForms {
  site: Site;
  forms: Form[];
}

export interface OrganizationForms {
  sites: SiteForms[];
  /** Whether sites or forms were left out (past the bounds). */
  truncated: boolean;
}

export async function organizationForms(orgId: string): Promise<OrganizationForms> {
  const page = await listSites(orgId, MAX_SITES);
  const sites = await Promise.all(
    page.items.map(async (site) => {
      const forms: Form[] = [];
      let cursor: string | undefined;
      do {
        const found = await listSiteForms(site.id, false, 100, cursor);
        forms.push(...found.items);
        cursor = found.nextCursor ?? undefined;
      } while (cursor && forms.length < MAX_FORMS_PER_SITE);
      return { site, forms: forms.slice(0, MAX_FORMS_PER_SITE), more: cursor !== undefined || forms.length > MAX_FORMS_PER_SITE };
    }),
  );
  return {
    sites: sites.map(({ site, forms }) => ({ site, forms })),
    truncated: page.nextCursor !== null || sites.some((s) => s.more),
  };
}
