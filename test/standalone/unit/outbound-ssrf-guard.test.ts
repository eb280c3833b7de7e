import { checkTargetUrl, guardedLookup, parseTargetUrl } from "../../../lib/outbound/ssrf";

describe("the SSRF guard", () => {
  test("only http and https URLs with a host", () => {
    for (const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "gopher://x/",
      "javascript:alert(1)",
      "not a url",
      "http://",
      `https://e.com/${"a".repeat(2100)}`,
    ]) {
      expect(() => parseTargetUrl(url)).toThrow();
    }
    expect(parseTargetUrl("https://example.com/hook").hostname).toBe("example.com");
  });

  test("refuses literal and resolved private targets when the guard is on", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://127.0.0.1:8080/",
      "http://[::1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://10.1.2.3/",
      "http://0.0.0.0/",
      "http://localhost/",
      "http://2130706433/",
      "http://0x7f.1/",
    ]) {
      await expect(checkTargetUrl(url, false)).rejects.toThrow(/refused address|cannot be resolved/);
    }
    await expect(checkTargetUrl("http://nonexistent.invalid/", false)).rejects.toThrow(/cannot be resolved/);
    // With the guard off (the local stack), loopback is fine.
    await expect(checkTargetUrl("http://127.0.0.1:8080/", true)).resolves.toBeInstanceOf(URL);
  });

  test("the connection-time lookup refuses a host whose addresses include a refused one", async () => {
    const lookup = guardedLookup(false);
    const result = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      lookup("localhost", { all: false }, (error, address) => resolve({ error, address })),
    );
    expect(result.error?.message).toMatch(/refused address \(loopback\)/);
    const open = guardedLookup(true);
    const ok = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      open("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(ok.error).toBeNull();
    expect(Array.isArray(ok.address)).toBe(true);
  });
});
