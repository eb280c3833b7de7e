import { readFileSync } from "node:fs";
import { ERROR_STATUS } from "../../../lib/errors";

describe("the error table", () => {
  test("docs/api.md lists every error code with its status", () => {
    const doc = readFileSync("docs/api.md", "utf8");
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(doc).toMatch(new RegExp(`\\|\\s*${status}\\s*\\|\\s*\`${code}\`\\s*\\|`));
    }
  });
});
