import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { clientIp, EDGE_HEADER } from "../../../lib/http/client-ip";

const SECRET = "s".repeat(40);
const EDGE = "130.176.1.10";

const event = (headers: Record<string, string>, sourceIp = EDGE) =>
  ({ headers, requestContext: { http: { sourceIp } } }) as unknown as APIGatewayProxyEventV2;

describe("clientIp: the visitor behind CloudFront, never an address a caller made up", () => {
  test("with CloudFront's token, the last X-Forwarded-For hop is the visitor", () => {
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": "203.0.113.7" }), SECRET)).toBe("203.0.113.7");
    // A visitor's own X-Forwarded-For comes first; CloudFront appends what it saw.
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": "1.2.3.4, 203.0.113.7" }), SECRET)).toBe("203.0.113.7");
    // Should API Gateway append the edge's address too, it is dropped.
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": `1.2.3.4, 203.0.113.7, ${EDGE}` }), SECRET)).toBe(
      "203.0.113.7",
    );
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": "2001:db8::1" }), SECRET)).toBe("2001:db8::1");
  });

  test("without the token, or with a wrong one, X-Forwarded-For is ignored (anyone can send it to the API's own URL)", () => {
    expect(clientIp(event({ "x-forwarded-for": "203.0.113.7" }, "198.51.100.9"), SECRET)).toBe("198.51.100.9");
    expect(clientIp(event({ [EDGE_HEADER]: "guess", "x-forwarded-for": "203.0.113.7" }, "198.51.100.9"), SECRET)).toBe(
      "198.51.100.9",
    );
    expect(clientIp(event({ [EDGE_HEADER]: `${SECRET}x`, "x-forwarded-for": "203.0.113.7" }, "198.51.100.9"), SECRET)).toBe(
      "198.51.100.9",
    );
  });

  test("no secret configured (the local stack): the peer address", () => {
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": "203.0.113.7" }, "127.0.0.1"), undefined)).toBe(
      "127.0.0.1",
    );
  });

  test("a missing or malformed hop falls back to the peer", () => {
    expect(clientIp(event({ [EDGE_HEADER]: SECRET }), SECRET)).toBe(EDGE);
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": "not-an-ip" }), SECRET)).toBe(EDGE);
    expect(clientIp(event({ [EDGE_HEADER]: SECRET, "x-forwarded-for": " , " }), SECRET)).toBe(EDGE);
  });
});
