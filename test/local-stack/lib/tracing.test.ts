import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { traceClient } from "../../../lib/aws/tracing";
import { loadConfig } from "../../../lib/config";

/**
 * TRACING (lib/aws/tracing.ts): off, a client is left exactly as built and the Tracer is never
 * loaded; on, Powertools' Tracer adds its X-Ray middleware to the client's stack before the first
 * call leaves, and calls still answer. Against the test stack's DynamoDB Local.
 */
const XRAY_MIDDLEWARE = "XRaySDKInstrumentation";

function documentClient() {
  const config = loadConfig();
  const base = new DynamoDBClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  return { base, client: DynamoDBDocumentClient.from(base) };
}
const names = (client: DynamoDBClient) => client.middlewareStack.identify().map((entry) => entry.split(" ")[0]);
const read = (client: DynamoDBDocumentClient) =>
  client.send(new GetCommand({ TableName: loadConfig().TABLE_NAME, Key: { pk: "TRACING#test", sk: "NONE" } }));

test("off: the client is untouched", async () => {
  const { base, client } = documentClient();
  const send = client.send;
  traceClient(base, client, false);
  expect(client.send).toBe(send);
  expect(names(base)).not.toContain(XRAY_MIDDLEWARE);
  expect((await read(client)).Item).toBeUndefined();
});

test("on: the Tracer's middleware is on the stack before the first call, and calls answer", async () => {
  // The Tracer traces only inside Lambda (it reads AWS_EXECUTION_ENV); outside a traced
  // invocation the X-Ray SDK reports the missing segment and lets the call through.
  process.env.AWS_EXECUTION_ENV = "AWS_Lambda_nodejs22.x";
  const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const { base, client } = documentClient();
    traceClient(base, client, true);
    expect((await read(client)).Item).toBeUndefined();
    expect(names(base)).toContain(XRAY_MIDDLEWARE);
  } finally {
    errors.mockRestore();
    delete process.env.AWS_EXECUTION_ENV;
  }
});
