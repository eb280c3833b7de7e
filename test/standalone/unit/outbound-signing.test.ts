import { Webhook } from "standardwebhooks";
import { deliveryHeaders, newSigningSecret, sign } from "../../../lib/outbound/signing";

describe("Standard Webhooks signing", () => {
  test("secrets are whsec_ + base64 of 32 random bytes, never repeated", () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  test("the standardwebhooks package verifies what we sign, and signs the same bytes", () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ type: "submission.created", data: { name: "Zoë ✓", n: 1 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, "dlv_abc", timestamp, body);
    expect(headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "dlv_abc",
      "webhook-timestamp": String(timestamp),
    });
    expect(headers["user-agent"]).toMatch(/^Inlet-Webhooks\//);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(secret).sign("dlv_abc", new Date(timestamp * 1000), body)).toBe(headers["webhook-signature"]);
  });

  test("a changed body, id, timestamp or secret fails verification", () => {
    const secret = newSigningSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, "dlv_1", timestamp, "{}");
    expect(() => new Webhook(secret).verify('{"a":1}', headers)).toThrow();
    expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-id": "dlv_2" })).toThrow();
    expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-timestamp": String(timestamp + 1) })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify("{}", headers)).toThrow();
  });

  test("a signature is v1, then base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded secret", () => {
    // A fixed vector, computed independently: HMAC-SHA256(key=bytes 0..31, "msg_1.1700000000.{}").
    const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("base64")}`;
    const expected = new Webhook(secret).sign("msg_1", new Date(1_700_000_000_000), "{}");
    expect(sign(secret, "msg_1", 1_700_000_000, "{}")).toBe(expected);
    expect(() => sign("not-a-secret", "msg_1", 1, "{}")).toThrow();
  });
});
