import { expect, test } from "./support/fixtures";
import { chooseFile, openImport } from "./support/import";

/**
 * An import long enough to watch: its progress while the job runs, then its summary. Its 1,000
 * rows keep the local pipeline's bookkeeper busy for a while, so it runs in the "volume" project,
 * after the others (as inbox-volume.spec.ts does), where it delays no other spec's wait for a count.
 * Alone, without the dashboard project first: `E2E_PORT=… npx playwright test --no-deps test/e2e/import-volume.spec.ts`.
 */
test("a larger file shows its progress while it runs, then its summary", async ({ signedIn: page, request, account }) => {
  await openImport(page, request, account);
  const rows = Array.from(
    { length: 1000 },
    (_, i) => `lead${i}@example.com,Message ${i},${new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString()}`,
  );
  await chooseFile(page, "big.csv", `email,message,created_at\n${rows.join("\n")}\n`);
  await page.getByRole("button", { name: "Import 1000 rows" }).click();
  const job = page.getByRole("region", { name: /Import(ing…| finished)/ });
  // While it runs: the bar, named by the words beside it.
  await expect(job.getByRole("progressbar", { name: /^\d+ of 1000 rows done\.$/ })).toBeVisible();
  await expect(job.getByRole("status")).toHaveText(
    "Finished: 1000 rows imported (0 of them in spam), 0 duplicates already there, 0 skipped.",
    { timeout: 60_000 },
  );
  await expect(job.getByRole("progressbar")).toHaveAttribute("value", "1000");
});
