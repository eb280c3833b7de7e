import type { APIRequestContext, Page } from "@playwright/test";
import { type Account, expect } from "./fixtures";
import { createForm, createSite } from "./forms";

/** Helpers of the import specs (import.spec.ts, import-volume.spec.ts). */

/** A site and a built form with name, email and message; its Import page open. */
export async function openImport(page: Page, request: APIRequestContext, account: Account) {
  const siteId = await createSite(request, account, "example.com");
  const form = await createForm(request, account, siteId, {
    name: "Contact",
    fields: [
      { key: "name", label: "Name", type: "name", required: false },
      { key: "email", label: "Email", type: "email", required: false },
      { key: "message", label: "Message", type: "textarea", required: false },
    ],
  });
  await page.goto(`/forms/${form.id}/import`);
  await expect(page.getByRole("heading", { name: "Import", level: 2 })).toBeVisible();
  return form.id;
}

/** Chooses a CSV file with the page's file input. */
export const chooseFile = (page: Page, name: string, text: string) =>
  page.getByLabel("Export file (CSV or JSON)").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
