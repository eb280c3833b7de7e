import { createHash, createHmac } from "node:crypto";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { createS3Client, type S3ClientOptions, type S3Credentials } from "../../lib/aws/s3";

/**
 * lib/aws/s3.ts signs S3 requests without the S3 client. Presigned links are held to what the
 * official presigner produces for the same input, byte for byte; the PUT's signature is checked
 * by a second SigV4 implementation written here from the AWS documentation
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html and S3's
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html).
 */

const SESSION: S3Credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE/token+with=odd/chars",
};
const LONG_TERM: S3Credentials = { accessKeyId: "AKIDLONGTERM", secretAccessKey: "secret/long+term=key" };
const SIGNING_DATE = new Date("2024-05-06T07:08:09.123Z");
const AMZ_DATE = "20240506T070809Z";
const BUCKET = "inlet-exports-bucket83908e77-1a2b3c4d5e6f";
const LOCAL = "http://127.0.0.1:4566";

const KEYS = [
  "exports/org_01/form_01/2024-05-06T07-08-09-123Z-AbCdEf123456.csv",
  "exports/a b/ü+=x.csv",
  "exports/naïve café/κλειδί 1+1=2 (copy)*!'.json",
  "exports/日本語/emoji-🎉.csv",
];

const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 percent-encoding of everything but unreserved characters (SigV4's UriEncode). */
const uriEncode = (value: string) =>
  [...Buffer.from(value, "utf8")]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");

/** SigV4's signature of `canonicalRequest`, computed from the documented steps. */
function sigV4(canonicalRequest: string, secret: string, date: string, region: string) {
  const scope = `${date.slice(0, 8)}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", date, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date.slice(0, 8)), region), "s3"), "aws4_request");
  return createHmac("sha256", key).update(stringToSign).digest("hex");
}

function ours(options: Partial<S3ClientOptions> & { region: string }) {
  return createS3Client({ credentials: SESSION, now: () => SIGNING_DATE, sleep: async () => {}, ...options });
}

describe("presigned GET links equal @aws-sdk/s3-request-presigner's", () => {
  const cases = [
    { name: "virtual-hosted, eu-west-1", region: "eu-west-1", endpoint: undefined },
    { name: "virtual-hosted, us-east-1", region: "us-east-1", endpoint: undefined },
    { name: "path-style on a local endpoint", region: "us-east-1", endpoint: LOCAL },
  ];
  for (const { name, region, endpoint } of cases) {
    for (const credentials of [SESSION, LONG_TERM]) {
      test.each(KEYS)(`${name}, ${credentials.sessionToken ? "session" : "long-term"} credentials: %s`, async (key) => {
        const official = new S3Client({
          region,
          credentials,
          ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
        });
        const input = {
          Bucket: BUCKET,
          Key: key,
          ResponseContentType: "text/csv; charset=utf-8",
          ResponseContentDisposition: `attachment; filename="contact-sales-submissions-2024-05-06.csv"`,
        };
        const expected = await getSignedUrl(official, new GetObjectCommand(input), {
          expiresIn: 900,
          signingDate: SIGNING_DATE,
        });
        const actual = await ours({ region, endpoint, credentials }).presignGet(BUCKET, key, {
          expiresIn: 900,
          responseContentType: input.ResponseContentType,
          responseContentDisposition: input.ResponseContentDisposition,
        });
        expect(actual).toBe(expected);
      });
    }
  }

  test("the link's signature also checks out against the documented algorithm (query-string auth)", async () => {
    const key = KEYS[1] as string;
    const link = new URL(
      await ours({ region: "eu-west-1" }).presignGet(BUCKET, key, { expiresIn: 900, responseContentType: "text/csv" }),
    );
    expect(link.host).toBe(`${BUCKET}.s3.eu-west-1.amazonaws.com`);
    expect(link.pathname).toBe("/exports/a%20b/%C3%BC%2B%3Dx.csv");
    const params = [...link.searchParams.entries()];
    const signature = link.searchParams.get("X-Amz-Signature");
    expect(link.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    expect(link.searchParams.get("X-Amz-Security-Token")).toBe(SESSION.sessionToken);
    expect(link.searchParams.get("X-Amz-Credential")).toBe(`AKIDEXAMPLE/20240506/eu-west-1/s3/aws4_request`);
    const canonicalQuery = params
      .filter(([name]) => name !== "X-Amz-Signature")
      .map(([name, value]) => [uriEncode(name), uriEncode(value)])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join("&");
    const canonicalRequest = ["GET", `/${key.split("/").map(uriEncode).join("/")}`, canonicalQuery, `host:${link.host}`, "", "host", "UNSIGNED-PAYLOAD"].join("\n");
    expect(signature).toBe(sigV4(canonicalRequest, SESSION.secretAccessKey, AMZ_DATE, "eu-west-1"));
  });
});

interface Sent {
  url: string;
  init: RequestInit;
}

function recordingFetch(answers: (Response | Error)[]) {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const answer = answers.shift() ?? new Response("", { status: 200 });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { sent, fetch };
}

const s3Error = (status: number, code: string, message = "Something went wrong.") =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>REQ123</RequestId><HostId>host/id=</HostId></Error>`,
    { status, headers: { "content-type": "application/xml" } },
  );

describe("PUT", () => {
  const body = Buffer.from("\uFEFFName,Email\r\nAda,ada@example.com\r\n", "utf8");
  const key = "exports/a b/ü+=x.csv";

  test.each([
    { name: "virtual-hosted, session credentials", endpoint: undefined, credentials: SESSION, region: "eu-west-1" },
    { name: "path-style local endpoint, long-term credentials", endpoint: LOCAL, credentials: LONG_TERM, region: "us-east-1" },
  ])("$name: the request is signed as SigV4 documents it", async ({ endpoint, credentials, region }) => {
    const { sent, fetch } = recordingFetch([]);
    await ours({ region, endpoint, credentials, fetch }).putObject(BUCKET, key, body, "text/csv; charset=utf-8");
    expect(sent).toHaveLength(1);
    const { url, init } = sent[0] as Sent;
    const path = "/exports/a%20b/%C3%BC%2B%3Dx.csv";
    expect(url).toBe(endpoint ? `${LOCAL}/${BUCKET}${path}` : `https://${BUCKET}.s3.${region}.amazonaws.com${path}`);
    expect(init.method).toBe("PUT");
    expect(Buffer.from(init.body as Uint8Array).equals(body)).toBe(true);
    expect(init.signal).toBeInstanceOf(AbortSignal);

    const headers = init.headers as Record<string, string>;
    // fetch sets Host from the URL; the request must not carry a second one.
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain("host");
    expect(headers["x-amz-content-sha256"]).toBe(sha256Hex(body));
    expect(headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(headers["content-length"]).toBe(String(body.length));
    expect(headers["x-amz-date"]).toBe(AMZ_DATE);
    expect(headers["x-amz-security-token"]).toBe(credentials.sessionToken);

    const auth = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      headers.authorization ?? "",
    );
    expect(auth).not.toBeNull();
    const [, credential, signedHeaders, signature] = auth as RegExpExecArray;
    expect(credential).toBe(`${credentials.accessKeyId}/20240506/${region}/s3/aws4_request`);
    const expectedSigned = ["content-length", "content-type", "host", "x-amz-content-sha256", "x-amz-date"];
    if (credentials.sessionToken) expectedSigned.push("x-amz-security-token");
    expect(signedHeaders).toBe(expectedSigned.join(";"));

    const target = new URL(url);
    const value = (name: string) => (name === "host" ? target.host : (headers[name] as string).trim().replace(/\s+/g, " "));
    const canonicalRequest = [
      "PUT",
      // S3 signs the path as sent: each key segment URI-encoded once, "/" kept.
      `${endpoint ? `/${BUCKET}` : ""}/${key.split("/").map(uriEncode).join("/")}`,
      "",
      ...expectedSigned.map((name) => `${name}:${value(name)}`),
      "",
      expectedSigned.join(";"),
      sha256Hex(body),
    ].join("\n");
    expect(signature).toBe(sigV4(canonicalRequest, credentials.secretAccessKey, AMZ_DATE, region));
  });

  test("a throttled or failing S3 is retried: 503, 503, then 200 is three attempts and success", async () => {
    const { sent, fetch } = recordingFetch([s3Error(503, "SlowDown", "Please reduce your request rate."), s3Error(503, "ServiceUnavailable"), new Response("", { status: 200 })]);
    const waits: number[] = [];
    const client = ours({ region: "eu-west-1", fetch, sleep: async (ms) => void waits.push(ms) });
    await expect(client.putObject(BUCKET, key, body, "text/csv")).resolves.toBeUndefined();
    expect(sent).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThan(waits[1] as number);
    // Every attempt is signed afresh, for the same body.
    for (const { init } of sent) expect((init.headers as Record<string, string>)["x-amz-content-sha256"]).toBe(sha256Hex(body));
  });

  test("network errors and S3's RequestTimeout are retried too", async () => {
    const { sent, fetch } = recordingFetch([new TypeError("fetch failed"), s3Error(400, "RequestTimeout"), new Response("", { status: 200 })]);
    await ours({ region: "eu-west-1", fetch }).putObject(BUCKET, key, body, "text/csv");
    expect(sent).toHaveLength(3);
  });

  test("403 AccessDenied is not retried; the error is named by S3's code and carries no secret", async () => {
    const { sent, fetch } = recordingFetch([s3Error(403, "AccessDenied", "Access Denied")]);
    const error = await ours({ region: "eu-west-1", fetch })
      .putObject(BUCKET, key, body, "text/csv")
      .then(() => undefined, (e: unknown) => e as Error);
    expect(sent).toHaveLength(1);
    expect(error).toBeInstanceOf(Error);
    expect(error?.name).toBe("AccessDenied");
    expect(error?.message).toContain("403");
    expect(error?.message).toContain("Access Denied");
    const authorization = (sent[0]?.init.headers as Record<string, string>).authorization as string;
    for (const secret of [SESSION.secretAccessKey, SESSION.sessionToken as string, authorization, authorization.slice(-64)]) {
      expect(error?.message).not.toContain(secret);
    }
  });

  test("after three failed attempts the last error is thrown, named by its code", async () => {
    const { sent, fetch } = recordingFetch([s3Error(500, "InternalError"), s3Error(500, "InternalError"), s3Error(503, "SlowDown")]);
    await expect(ours({ region: "eu-west-1", fetch }).putObject(BUCKET, "exports/k.csv", body, "text/csv")).rejects.toMatchObject({
      name: "SlowDown",
      message: expect.stringContaining("503"),
    });
    expect(sent).toHaveLength(3);
  });

  test("an error without an XML body is named by its status; a 404 NoSuchBucket by its code", async () => {
    const plain = recordingFetch([new Response("", { status: 400 })]);
    await expect(ours({ region: "eu-west-1", fetch: plain.fetch }).putObject(BUCKET, "k", body, "text/csv")).rejects.toMatchObject({
      name: "S3Http400",
    });
    const missing = recordingFetch([s3Error(404, "NoSuchBucket", "The specified bucket does not exist")]);
    await expect(ours({ region: "eu-west-1", fetch: missing.fetch }).putObject(BUCKET, "k", body, "text/csv")).rejects.toMatchObject({
      name: "NoSuchBucket",
    });
    expect(plain.sent).toHaveLength(1);
    expect(missing.sent).toHaveLength(1);
  });

  test("credentials come from the provider given, asked on each signing (its own cache decides)", async () => {
    let asked = 0;
    const { sent, fetch } = recordingFetch([]);
    const client = ours({ region: "eu-west-1", fetch, credentials: async () => (asked++, LONG_TERM) });
    expect(asked).toBe(0);
    await client.putObject(BUCKET, "exports/k.csv", body, "text/csv");
    expect(asked).toBe(1);
    expect((sent[0]?.init.headers as Record<string, string>).authorization).toContain("Credential=AKIDLONGTERM/");
  });
});
