import { expectAccessibleInBothThemes } from "./support/a11y";
import { apiAs, createAccount, expect, signIn, test } from "./support/fixtures";
import { failingEndpoint, siteWithTraffic } from "./support/overview";

/**
 * A site's overview (docs/dashboard.md, "A site's overview"): the layout's sections, the chart
 * with its table, the busiest sources and forms, the failing deliveries; a site of another
 * organization; axe in both themes.
 */
test.describe.configure({ mode: "parallel" });

test("the overview counts what intake stored, spam apart, with the busiest and the failing", async ({
  signedIn: page,
  request,
  account,
}) => {
  const site = await siteWithTraffic(request, account);
  const endpoint = await failingEndpoint(request, account, site);

  await page.goto("/");
  await page.getByRole("link", { name: `Site of ${account.organizationName}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const sections = page.getByRole("navigation", { name: "Site" });
  await expect(sections.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

  // 4 leads (the last one brought the failing delivery) and 1 spam.
  await expect(page.getByRole("definition").filter({ hasText: /^4$/ })).toBeVisible();
  const totals = page.locator("dl");
  await expect(totals).toContainText("In the inbox4");
  await expect(totals).toContainText("Spam1");
  await expect(totals).toContainText("Share of spam20%");

  const chart = page.getByRole("img", { name: /Submissions per day, last 30 days: 4 in the inbox and 1 spam/ });
  await expect(chart).toBeVisible();
  // The table is there for screen readers, and shown to everyone on request.
  const table = page.getByRole("table", { name: /Submissions per day/ });
  await expect(table.getByRole("row")).toHaveCount(31);
  const show = page.getByRole("button", { name: "Show as a table" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await show.click();
  await expect(page.getByRole("button", { name: "Hide the table" })).toHaveAttribute("aria-expanded", "true");
  await expect(table).toBeVisible();
  const today = table.getByRole("row").nth(1);
  await expect(today.getByRole("cell")).toHaveText(["4", "1"]);

  const sources = page.getByRole("region", { name: "Busiest sources" });
  await expect(sources.getByRole("listitem")).toHaveText(["Contact form4"]);
  const forms = page.getByRole("region", { name: "Busiest forms" });
  await expect(forms.getByRole("listitem")).toHaveCount(1);
  await expect(forms.getByRole("listitem")).toContainText("4");

  // The failing delivery links to its endpoint's page under the form's webhooks.
  const failing = page.getByRole("region", { name: "Outbound deliveries failing now" });
  const link = failing.getByRole("link", { name: "CRM sync" });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("href", `/forms/${site.formId}/webhooks/${endpoint.id}`);
  await expect(failing).toContainText("http://127.0.0.1:9/crm-hook");
  await expect(failing).toContainText(/Retrying|Failed/);

  // The busiest form opens its inbox; the site's sections lead to its sources.
  await forms.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/forms/${site.formId}$`));
  await page.goBack();
  await sections.getByRole("link", { name: "Sources" }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${site.siteId}/sources$`));
  await expect(page.getByRole("heading", { level: 1, name: "Sources" })).toBeVisible();
  await expect(sections.getByRole("link", { name: "Sources" })).toHaveAttribute("aria-current", "page");
  await expect(sections.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current", "page");
});

test("a new site shows an empty overview that leads to adding a source", async ({ signedIn: page, request, account }) => {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "Fresh site" });
  await page.goto(`/sites/${site.id}`);
  await expect(page.getByText("Fresh site")).toBeVisible();
  await expect(page.getByText("Nothing arrived in the last 30 days.")).toBeVisible();
  await expect(page.getByRole("img", { name: /Submissions per day/ })).toHaveCount(0);
  await expect(page.getByText("None: every outbound webhook's latest delivery went through.")).toBeVisible();
  await page.getByRole("link", { name: "Add a source" }).click();
  await expect(page.getByText("No sources yet.")).toBeVisible();
});

test("another organization's site is not shown: the page says it is not there", async ({ signedIn: page, request }) => {
  const other = await createAccount(request);
  const site = await siteWithTraffic(request, other, 1);
  await page.goto(`/sites/${site.siteId}`);
  await expect(page.getByRole("alert")).toHaveText(/This site does not exist, or it belongs to another organization\./);
  await expect(page.getByText("Contact form")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Site" })).toHaveCount(0);
  await page.getByRole("link", { name: "Back to your sites" }).click();
  await expect(page.getByRole("heading", { name: /Sites|Welcome to Inlet/ })).toBeVisible();
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the overview with its chart, its table shown and a failing delivery, light and dark", async ({ page, request }) => {
    const account = await createAccount(request);
    const site = await siteWithTraffic(request, account, 2);
    await failingEndpoint(request, account, site);
    await signIn(page, account);
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.getByRole("region", { name: "Outbound deliveries failing now" }).getByRole("link")).toBeVisible();
    await expectAccessibleInBothThemes(page, "a site's overview");
    await page.getByRole("button", { name: "Show as a table" }).click();
    await expectAccessibleInBothThemes(page, "a site's overview with its table");
    const { site: empty } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "Empty" });
    await page.goto(`/sites/${empty.id}`);
    await expect(page.getByText("Nothing arrived in the last 30 days.")).toBeVisible();
    await expectAccessibleInBothThemes(page, "an empty overview");
  });
});
