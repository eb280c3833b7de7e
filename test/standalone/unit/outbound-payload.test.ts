import { deliveryIdFor, submissionCreatedPayload } from "../../../lib/outbound/payload";

describe("delivery ids and the payload", () => {
  test("one deterministic dlv_ id per (submission, endpoint)", () => {
    const id = deliveryIdFor("sub_1", "ep_1");
    expect(id).toMatch(/^dlv_[0-9A-Za-z]{22}$/);
    expect(deliveryIdFor("sub_1", "ep_1")).toBe(id);
    expect(deliveryIdFor("sub_1", "ep_2")).not.toBe(id);
    expect(deliveryIdFor("sub_2", "ep_1")).not.toBe(id);
    // No ambiguity from concatenation.
    expect(deliveryIdFor("sub_1e", "p_1")).not.toBe(id);
  });

  test("submission.created carries the submission, its verdict and its lead", () => {
    // Field keys are user data: `__proto__` is an ordinary key (lib/store/submissions.ts reads data so).
    const data = Object.assign(Object.create(null), JSON.parse('{"email":"a@b.co","__proto__":"kept"}'));
    const body = submissionCreatedPayload(
      {
        id: "sub_1",
        orgId: "org_1",
        siteId: "site_1",
        formId: "form_1",
        webhookId: "wh_1",
        referenceId: "REF-1",
        data,
        metadata: { source: "api", userAgent: null, referer: null, ip: "192.0.2.1", droppedFiles: [], ignoredFields: [] },
        spam: { isSpam: false, score: 0, signals: [] } as never,
        createdAt: "2026-01-01T00:00:00.000Z",
      },
      { score: 80, grade: "hot", reasons: ["x"] },
      "2026-01-01T00:00:01.000Z",
    );
    const event = JSON.parse(body);
    expect(event).toEqual({
      type: "submission.created",
      timestamp: "2026-01-01T00:00:01.000Z",
      data: {
        submissionId: "sub_1",
        referenceId: "REF-1",
        formId: "form_1",
        siteId: "site_1",
        fields: expect.objectContaining({ email: "a@b.co" }),
        metadata: expect.objectContaining({ source: "api", ip: "192.0.2.1" }),
        spam: { isSpam: false, score: 0, signals: [] },
        lead: { score: 80, grade: "hot", reasons: ["x"] },
        createdAt: "2026-01-01T00:00:00.000Z",
      },
    });
    expect(Object.hasOwn(event.data.fields, "__proto__")).toBe(true);
    expect(body).toContain('"fields":{"email":"a@b.co","__proto__":"kept"}');
  });
});
