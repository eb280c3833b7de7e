import { readFileSync } from "node:fs";
import { convertedForm, SERVICES } from "../../../web/src/features/sources/moving-in";

/**
 * The dashboard's "Coming from another service?" (web/src/features/sources/moving-in.ts) and
 * docs/moving-in.md say the same thing: each service has its section in the document, and that
 * section names every field the panel lists, the import's file kind and the same "Unverified" words.
 */
// Jest runs from the repository root (as errors.test.ts reads docs/api.md).
const doc = readFileSync("docs/moving-in.md", "utf8");

/** The text of the document's `## <title>` section, up to the next `## `. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) return "";
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe("docs/moving-in.md and the dashboard's moving-in panel", () => {
  test.each(SERVICES.map((s) => [s.name, s] as const))("%s: the same fields, import and caveats", (name, service) => {
    const text = section(name);
    expect(text).not.toBe("");
    for (const field of service.fields) expect(text).toContain(`\`${field.name}\``);
    expect(text).toContain(`source: "${service.importSource}"`);
    expect(text.replace(/\s+/g, " ").toLowerCase()).toContain(service.unverified.toLowerCase());
    expect(text).toContain(service.oldAction.startsWith("http") ? service.oldAction.replace(/<.*>$/, "") : "no `action`");
  });

  test("every service has a section, and no section names a service the panel lacks", () => {
    const titles = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const services = titles.filter((t) => !["Before you start", "Sources of this page"].includes(t ?? ""));
    expect(services).toEqual(SERVICES.map((s) => s.name));
  });

  test("a converted form posts to the intake URL, with the key where the service keeps it", () => {
    const url = "https://inlet.example/api/v1/incoming/wh_1";
    for (const service of SERVICES) {
      const html = convertedForm(service.id, { url, key: "inlet_whsk_k" });
      expect(html).not.toMatch(/formspree\.io|formsubmit\.co|usebasin\.com|getform\.io|web3forms\.com\/submit|data-netlify/);
      if (service.id === "web3forms") {
        expect(html).toContain(`action="${url}"`);
        expect(html).toContain('name="access_key" value="inlet_whsk_k"');
      } else {
        expect(html).toContain(`action="${url}?key=inlet_whsk_k"`);
      }
    }
    // A redirect must be on the site's domain: the example's thank-you page is on it.
    expect(convertedForm("web3forms", { url, key: "k", domain: "shop.example" })).toContain(
      'name="redirect" value="https://shop.example/success"',
    );
    expect(convertedForm("formsubmit", { url, key: "k", domain: "shop.example" })).toContain(
      'name="_next" value="https://shop.example/thank-you"',
    );
    expect(convertedForm("netlify", { url, key: "k", honeypotField: "trap" })).toContain('name="trap"');
    expect(convertedForm("netlify", { url, key: "k" })).toContain('name="form-name" value="contact"');
    expect(convertedForm("netlify", { url, key: "k" })).toContain('name="bot-field"');
  });
});
