import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { api, emailedLinkToken, signupOwner, uniqueEmail } from "../../support/api";
import { TEST_PASSWORD } from "../../support/constants";

// Each jest test file has its own module registry: this file's handlers see this configuration.
process.env.SIGNUP_MODE = "invite-only";
const { handler } = await import("../../../functions/auth/signup");

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

test("SIGNUP_MODE=invite-only: a reclaim link works with an invite (given, or asked with the reclaim), never without one", async () => {
  // The owner and the squatter sign up through the test stack (open signup); the invited person
  // signs up through this file's invite-only handler.
  const owner = await signupOwner("invite-only-owner");
  const address = uniqueEmail("invite-only-squatted");
  expect(
    (
      await api("POST", "/api/v1/auth/signup", {
        body: { email: address, password: TEST_PASSWORD, name: "Squatter", organizationName: "S" },
      })
    ).status,
  ).toBe(201);
  const invite = await api("POST", "/api/v1/team/invites", { token: owner.token, body: { email: address, role: "member" } });
  const inviteToken = invite.body.data.inviteToken as string;
  const person = { email: address, password: TEST_PASSWORD, name: "Invited" };
  const signup = async (body: Record<string, unknown>) => {
    const result = (await handler(event({ ...person, ...body }), context)) as { statusCode: number; body: string };
    return { status: result.statusCode, body: JSON.parse(result.body) };
  };

  const taken = await signup({ inviteToken });
  expect([taken.status, taken.body.error.code]).toEqual([409, "EMAIL_TAKEN"]);
  expect((await api("POST", "/api/v1/auth/reclaim-email", { body: { email: address, inviteToken } })).status).toBe(202);
  const reclaimToken = await emailedLinkToken(address, 2);
  // A reclaim proves the address, not an admission: an organization of one's own stays closed.
  const ownOrg = await signup({ organizationName: "Mine", reclaimToken });
  expect([ownOrg.status, ownOrg.body.error.code]).toEqual([403, "SIGNUP_CLOSED"]);
  const joined = await signup({ reclaimToken });
  expect(joined.status).toBe(201);
  expect(joined.body.data).toMatchObject({ organization: { id: owner.orgId }, role: "member", user: { emailVerified: true } });
});
