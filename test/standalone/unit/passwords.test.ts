import { hashPassword, verifyPassword } from "../../../lib/auth/passwords";

describe("passwords", () => {
  test("scrypt hashes verify the right password only and are salted", async () => {
    const a = await hashPassword("a long password", 1024);
    const b = await hashPassword("a long password", 1024);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$1024\$/);
    expect(await verifyPassword("a long password", a)).toBe(true);
    expect(await verifyPassword("a long passworD", a)).toBe(false);
    expect(await verifyPassword("a long password", "garbage")).toBe(false);
  });
});
