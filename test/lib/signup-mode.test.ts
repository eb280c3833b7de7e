import type { APIGatewayProxyEventV2, Context } from "aws-lambda";

// Each jest test file has its own module registry: this file's handlers see this configuration.
process.env.SIGNUP_MODE = "invite-only";
const { handler } = await import("../../functions/auth/signup");

function event(body: unknown): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey: "POST /api/v1/auth/signup",
    rawPath: "/api/v1/auth/signup",
    rawQueryString: "",
    headers: { "content-type": "application/json" },
    requestContext: {
      accountId: "000000000000",
      apiId: "test",
      domainName: "test.local",
      domainPrefix: "test",
      http: { method: "POST", path: "/api/v1/auth/signup", protocol: "HTTP/1.1", sourceIp: "192.0.2.1", userAgent: "jest" },
      requestId: "req-1",
      routeKey: "POST /api/v1/auth/signup",
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: "req-1", getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

test("SIGNUP_MODE=invite-only closes public signup with 403 SIGNUP_CLOSED", async () => {
  const result = (await handler(
    event({ email: "closed@example.com", password: "long enough pw", name: "N", organizationName: "O" }),
    context,
  )) as { statusCode: number; body: string };
  expect(result.statusCode).toBe(403);
  expect(JSON.parse(result.body).error.code).toBe("SIGNUP_CLOSED");
});
