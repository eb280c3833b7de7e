import { randomUUID } from "node:crypto";
import { claimFirstPlatformAdmin } from "../../../lib/store/platform-admin";

describe("the first platform admin claim", () => {
  test("exactly one of many concurrent claimers wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => claimFirstPlatformAdmin(`org_${randomUUID()}`, `usr_${randomUUID()}`).catch(() => false)),
    );
    // The marker may have been claimed by an earlier run of this file against the same table.
    expect(results.filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(await claimFirstPlatformAdmin("org_late", "usr_late")).toBe(false);
  });
});
