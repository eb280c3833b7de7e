import { LEAD_RULES, type LeadContext, qualifyLead } from "../../../lib/leads";

const ctx = (data: LeadContext["data"], extra: Partial<LeadContext> = {}): LeadContext => ({
  data,
  fieldTypes: {},
  ...extra,
});

describe("lead qualification", () => {
  test("a complete business lead from an ad is hot, with every reason listed", () => {
    const lead = qualifyLead(
      ctx(
        {
          full_name: "Ada Lovelace",
          email: "ada@analytical-engines.co.uk",
          phone: "+44 20 7946 0958",
          company: "Analytical Engines",
          message: "We would like a quote for forty engines delivered before the end of the quarter.",
        },
        { ads: { gcl_id: "CL-1", campaign_id: "8200000002" } },
      ),
    );
    expect(lead).toEqual({
      score: 100,
      grade: "hot",
      reasons: [
        "business email domain (analytical-engines.co.uk)",
        "plausible phone number",
        "company given",
        "detailed message",
        "came from an ad campaign",
        "name given",
      ],
    });
  });

  test("a free-mail address with a phone and name is cold; a company makes it warm", () => {
    expect(qualifyLead(ctx({ email: "someone@gmail.com", phone: "555-010-0199", name: "S" }))).toMatchObject({
      score: 35,
      grade: "cold",
    });
    expect(qualifyLead(ctx({ email: "someone@gmail.com", phone: "555-010-0199", company: "Acme", name: "S" }))).toMatchObject({
      score: 55,
      grade: "warm",
    });
  });

  test("a disposable address pulls the score down, never below 0", () => {
    const lead = qualifyLead(ctx({ email: "x@mailinator.com" }));
    expect(lead).toEqual({ score: 0, grade: "cold", reasons: ["disposable email domain (mailinator.com)"] });
  });

  test("implausible phones, short messages and missing fields add nothing", () => {
    const lead = qualifyLead(ctx({ phone: "12", message: "hi", other: "x" }));
    expect(lead).toEqual({ score: 0, grade: "cold", reasons: [] });
  });

  test("fields are found by the form's types as well as by key", () => {
    const lead = qualifyLead(
      ctx({ contact: "boss@example.org", number: "+1 212 555 0100" }, { fieldTypes: { contact: "email", number: "phone" } }),
    );
    expect(lead.reasons).toEqual(["business email domain (example.org)", "plausible phone number"]);
  });

  test("test leads are graded apart: always cold and marked", () => {
    const lead = qualifyLead(
      ctx({ full_name: "T", email: "t@corp.example", phone: "+15550100", company: "C" }, { isTest: true, ads: { gcl_id: "x" } }),
    );
    expect(lead.grade).toBe("cold");
    expect(lead.test).toBe(true);
    expect(lead.score).toBeGreaterThanOrEqual(70);
    expect(lead.reasons).toContain("test lead (graded apart)");
  });

  test("every rule has a unique name", () => {
    const names = LEAD_RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
