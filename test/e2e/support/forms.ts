import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { type Account, apiAs } from "./fixtures";

/** Helpers of the forms spec: forms arranged through the API, and the builder as a person reads it. */

export interface ApiForm {
  id: string;
  name: string;
  status: string;
  updatedAt: string;
  archivedAt: string | null;
  fields: { key: string; label: string; type: string; required: boolean; order: number }[];
  settings: { notifyEmails: string[]; redirectUrl: string | null };
}

export async function createSite(request: APIRequestContext, account: Account, domain?: string) {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", {
    name: "Marketing site",
    ...(domain ? { domain } : {}),
  });
  return site.id;
}

export async function createForm(request: APIRequestContext, account: Account, siteId: string, body: Record<string, unknown>) {
  const { form } = await apiAs<{ form: ApiForm }>(request, account, "POST", `/api/v1/sites/${siteId}/forms`, body);
  return form;
}

export async function readForm(request: APIRequestContext, account: Account, formId: string) {
  return (await apiAs<{ form: ApiForm }>(request, account, "GET", `/api/v1/forms/${formId}`)).form;
}

/** Someone else's edit, made through the API while the page has the form open. */
export async function changeForm(request: APIRequestContext, account: Account, formId: string, body: Record<string, unknown>) {
  return (await apiAs<{ form: ApiForm }>(request, account, "PUT", `/api/v1/forms/${formId}`, body)).form;
}

/** The builder's rows, in their order on the page. */
export const fieldRows = (page: Page) => page.getByRole("list", { name: "Fields of the form" }).getByRole("listitem");

/** The row whose label input holds `label`. */
export const fieldRow = (page: Page, label: string): Locator =>
  fieldRows(page).filter({ has: page.getByRole("group", { name: new RegExp(`: ${label}$`) }) });

/** The labels of the builder's rows, top to bottom. */
export async function rowLabels(page: Page): Promise<string[]> {
  const rows = await fieldRows(page).all();
  return Promise.all(rows.map((row) => row.getByLabel("Label", { exact: true }).inputValue()));
}

/** Adds a field at the end of the builder and fills it in. */
export async function addField(page: Page, field: { label: string; key?: string; type?: string; required?: boolean }) {
  await page.getByRole("button", { name: "Add a field" }).click();
  const row = fieldRows(page).last();
  await row.getByLabel("Label", { exact: true }).fill(field.label);
  if (field.key !== undefined) await row.getByLabel("Key", { exact: true }).fill(field.key);
  if (field.type) await row.getByLabel("Type", { exact: true }).selectOption({ label: field.type });
  if (field.required) await row.getByLabel("Required", { exact: true }).check();
}
