import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The WCAG levels the dashboard meets (docs/dashboard.md, quality bars). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

/**
 * Runs axe on the page as it is now and fails (softly, so one run lists every page's problems)
 * on any serious or critical violation, naming the rule, the elements and what is wrong.
 * It runs under the dashboard's CSP as served: @axe-core/playwright injects axe with Playwright's
 * evaluate, which the page's CSP does not govern (checked: under the CSP it finds an image
 * without alt and a nameless button added to the page), so a spec needs no `bypassCSP`.
 */
export async function expectNoSeriousViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n    ")}`,
    );
  expect.soft(serious, `axe on ${where}`).toEqual([]);
}

/** `expectNoSeriousViolations` in the light theme and then the dark one (the system preference, emulated). */
export async function expectAccessibleInBothThemes(page: Page, where: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${where} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
