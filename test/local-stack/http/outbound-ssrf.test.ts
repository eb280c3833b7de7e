import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { api, createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";

// Each jest test file has its own module registry, and lib/config.ts parses the environment once
// per process: set before the handlers load, this file's handlers run with the SSRF guard ON, as
// in production (the test stack itself allows private targets for the loopback receivers).
process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS = "false";
const { handler: createHandler } = await import("../../../functions/outbound-webhooks/create-outbound-webhook");
const { handler: updateHandler } = await import("../../../functions/outbound-webhooks/update-outbound-webhook");

function event(
  routeKey: string,
  path: string,
  token: string,
  params: Record<string, string>,
  body: unknown,
): APIGatewayProxyEventV2 {
  const [method] = routeKey.split(" ");
  return {
    version: "2.0",
    routeKey,
    rawPath: path,
    rawQueryString: "",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    pathParameters: params,
    requestContext: {
      accountId: "000000000000",
      apiId: "test",
      domainName: "test.local",
      domainPrefix: "test",
      http: { method: method as string, path, protocol: "HTTP/1.1", sourceIp: "192.0.2.1", userAgent: "jest" },
      requestId: "req-ssrf",
      routeKey,
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: "req-ssrf", getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
type Result = { statusCode: number; body: string };

describe("the SSRF guard at endpoint creation (guard on)", () => {
  let token: string;
  let formId: string;
  beforeAll(async () => {
    const owner = await signupOwner("ssrf");
    token = owner.token;
    formId = (await insertForm(owner, await createSite(owner))).id;
  });

  const create = async (url: string) =>
    (await createHandler(
      event(
        "POST /api/v1/forms/{formId}/outbound-webhooks",
        `/api/v1/forms/${formId}/outbound-webhooks`,
        token,
        { formId },
        { url },
      ),
      context,
    )) as Result;

  test.each([
    "http://169.254.169.254/",
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://127.0.0.1:3000/",
    "http://localhost/",
    "http://[::1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[fd00:ec2::254]/",
    "http://10.0.0.5/",
    "http://172.20.1.1/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://2130706433/",
    "https://[fe80::1]/",
  ])("refuses %s with 400 OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", async (url) => {
    const result = await create(url);
    expect(result.statusCode).toBe(400);
    const body = JSON.parse(result.body);
    expect(body.error.code).toBe("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED");
    expect(body.error.message).toMatch(/refused address|cannot be resolved/);
  });

  test("a public address is accepted", async () => {
    const result = await create("https://93.184.215.14/hooks");
    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body).data.url).toBe("https://93.184.215.14/hooks");
  });

  test("PUT checks a new URL the same way", async () => {
    const made = JSON.parse((await create("https://93.184.215.14/other")).body).data;
    const result = (await updateHandler(
      event(
        "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}",
        `/api/v1/forms/${formId}/outbound-webhooks/${made.id}`,
        token,
        { formId, endpointId: made.id },
        { url: "http://169.254.169.254/" },
      ),
      context,
    )) as Result;
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).error.code).toBe("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED");
    const list = await api("GET", `/api/v1/forms/${formId}/outbound-webhooks`, { token });
    expect(list.body.data.outboundWebhooks.find((e: { id: string }) => e.id === made.id).url).toBe("https://93.184.215.14/other");
  });
});
