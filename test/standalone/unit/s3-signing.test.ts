import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createS3Client, type S3Credentials } from "../../../lib/aws/s3";

/**
 * lib/aws/s3.ts signs S3 requests with aws4fetch. Its signatures are checked here by a second
 * SigV4 implementation written from the AWS documentation
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html, S3's
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html and
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), and its PUTs
 * are sent over real HTTP to a server on loopback that plays S3.
 */

const SESSION: S3Credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE/token+with=odd/chars",
};
const LONG_TERM: S3Credentials = { accessKeyId: "AKIDLONGTERM", secretAccessKey: "secret/long+term=key" };
const BUCKET = "inlet-exports-bucket83908e77-1a2b3c4d5e6f";

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

/** The canonical query string of a URL's parameters, `X-Amz-Signature` left out. */
const canonicalQuery = (url: URL) =>
  [...url.searchParams.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");

/** A key's path as S3 signs it: each segment URI-encoded once, "/" kept. */
const keyPath = (key: string) => key.split("/").map(uriEncode).join("/");

describe("presigned GET links", () => {
  const cases = [
    { name: "virtual-hosted, eu-west-1", region: "eu-west-1", endpoint: undefined },
    { name: "path-style on a local endpoint", region: "us-east-1", endpoint: "http://127.0.0.1:4566" },
  ];
  for (const { name, region, endpoint } of cases) {
    for (const credentials of [SESSION, LONG_TERM]) {
      test.each(KEYS)(`${name}, ${credentials.sessionToken ? "session" : "long-term"} credentials: %s`, async (key) => {
        const link = new URL(
          await createS3Client({ region, endpoint, credentials }).presignGet(BUCKET, key, {
            expiresIn: 900,
            responseContentType: "text/csv; charset=utf-8",
            responseContentDisposition: `attachment; filename="contact-sales-submissions-2024-05-06.csv"`,
          }),
        );
        expect(link.host).toBe(endpoint ? "127.0.0.1:4566" : `${BUCKET}.s3.${region}.amazonaws.com`);
        const path = `${endpoint ? `/${BUCKET}` : ""}/${keyPath(key)}`;
        expect(link.pathname).toBe(path);
        expect(link.searchParams.get("X-Amz-Expires")).toBe("900");
        expect(link.searchParams.get("response-content-type")).toBe("text/csv; charset=utf-8");
        expect(link.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
        expect(link.searchParams.get("X-Amz-Security-Token")).toBe(credentials.sessionToken ?? null);
        const date = link.searchParams.get("X-Amz-Date") as string;
        expect(link.searchParams.get("X-Amz-Credential")).toBe(
          `${credentials.accessKeyId}/${date.slice(0, 8)}/${region}/s3/aws4_request`,
        );
        const canonicalRequest = ["GET", path, canonicalQuery(link), `host:${link.host}`, "", "host", "UNSIGNED-PAYLOAD"].join(
          "\n",
        );
        expect(link.searchParams.get("X-Amz-Signature")).toBe(sigV4(canonicalRequest, credentials.secretAccessKey, date, region));
      });
    }
  }
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** S3 on loopback: records each request and answers from `answers` (then 200). */
async function fakeS3(answers: { status: number; body?: string }[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, { "content-type": "application/xml" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { received, endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const s3Error = (status: number, code: string, message = "Something went wrong.") => ({
  status,
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>REQ123</RequestId><StringToSign>AWS4-HMAC-SHA256 secret-ish</StringToSign></Error>`,
});

describe("PUT", () => {
  const body = Buffer.from("\uFEFFName,Email\r\nAda,ada@example.com\r\n", "utf8");
  const key = "exports/a b/ü+=x.csv";

  test.each([SESSION, LONG_TERM])("the object arrives, signed as SigV4 documents it", async (credentials) => {
    const s3 = await fakeS3([]);
    try {
      await createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials }).putObject(
        BUCKET,
        key,
        body,
        "text/csv; charset=utf-8",
      );
      expect(s3.received).toHaveLength(1);
      const { method, url, headers, body: sent } = s3.received[0] as Received;
      expect(method).toBe("PUT");
      expect(url).toBe(`/${BUCKET}/${keyPath(key)}`);
      expect(sent.equals(body)).toBe(true);
      expect(headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(headers["x-amz-security-token"]).toBe(credentials.sessionToken);
      const auth = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        headers.authorization ?? "",
      );
      expect(auth).not.toBeNull();
      const [, credential, signedHeaders, signature] = auth as RegExpExecArray;
      const date = headers["x-amz-date"] as string;
      expect(credential).toBe(`${credentials.accessKeyId}/${date.slice(0, 8)}/us-east-1/s3/aws4_request`);
      const names = (signedHeaders as string).split(";");
      expect(names).toEqual(expect.arrayContaining(["host", "x-amz-content-sha256", "x-amz-date"]));
      const canonicalRequest = [
        "PUT",
        url,
        "",
        ...names.map((name) => `${name}:${String(headers[name]).trim().replace(/\s+/g, " ")}`),
        "",
        signedHeaders,
        headers["x-amz-content-sha256"],
      ].join("\n");
      expect(signature).toBe(sigV4(canonicalRequest, credentials.secretAccessKey, date, "us-east-1"));
    } finally {
      await s3.close();
    }
  });

  test("a throttled or failing S3 is retried: 503, 503, then 200 is three attempts and success", async () => {
    const s3 = await fakeS3([s3Error(503, "SlowDown"), s3Error(500, "InternalError")]);
    try {
      await expect(
        createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials: SESSION }).putObject(
          BUCKET,
          key,
          body,
          "text/csv",
        ),
      ).resolves.toBeUndefined();
      expect(s3.received).toHaveLength(3);
    } finally {
      await s3.close();
    }
  });

  test("a request that gets no answer (a reset connection) is tried again", async () => {
    let resets = 1;
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      received.push(req.url ?? "");
      if (resets-- > 0) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const client = createS3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: SESSION });
      await expect(client.putObject(BUCKET, key, body, "text/csv")).resolves.toBeUndefined();
      expect(received).toHaveLength(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("after three failed attempts the error is thrown, named by S3's code", async () => {
    const s3 = await fakeS3([s3Error(503, "SlowDown"), s3Error(503, "SlowDown"), s3Error(503, "SlowDown")]);
    try {
      const put = createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials: SESSION }).putObject(
        BUCKET,
        key,
        body,
        "text/csv",
      );
      await expect(put).rejects.toMatchObject({ name: "SlowDown", status: 503 });
      expect(s3.received).toHaveLength(3);
    } finally {
      await s3.close();
    }
  });

  test("403 AccessDenied is not retried; the error carries no secret and nothing S3 echoed of the signing", async () => {
    const s3 = await fakeS3([s3Error(403, "AccessDenied", "Access Denied")]);
    try {
      const error = await createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials: SESSION })
        .putObject(BUCKET, key, body, "text/csv")
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
      expect(error).toMatchObject({ name: "AccessDenied", status: 403 });
      expect(s3.received).toHaveLength(1);
      const text = `${error?.message} ${JSON.stringify(error)}`;
      expect(text).not.toContain(SESSION.secretAccessKey);
      expect(text).not.toContain("AWS4-HMAC-SHA256");
    } finally {
      await s3.close();
    }
  });

  test("an error without an XML body is named by its status; a 404 NoSuchBucket by its code", async () => {
    const s3 = await fakeS3([{ status: 400 }, s3Error(404, "NoSuchBucket", "The specified bucket does not exist")]);
    try {
      const client = createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials: SESSION });
      await expect(client.putObject(BUCKET, key, body, "text/csv")).rejects.toMatchObject({ name: "Http400", status: 400 });
      await expect(client.putObject(BUCKET, key, body, "text/csv")).rejects.toMatchObject({ name: "NoSuchBucket", status: 404 });
      expect(s3.received).toHaveLength(2);
    } finally {
      await s3.close();
    }
  });

  test("credentials come from the provider given, asked on each request (its own cache decides)", async () => {
    const s3 = await fakeS3([]);
    let asked = 0;
    const provider = async () => {
      asked++;
      return LONG_TERM;
    };
    try {
      const client = createS3Client({ region: "us-east-1", endpoint: s3.endpoint, credentials: provider });
      await client.putObject(BUCKET, key, body, "text/csv");
      await client.presignGet(BUCKET, key, { expiresIn: 60 });
      expect(asked).toBe(2);
      expect(s3.received[0]?.headers.authorization).toContain("Credential=AKIDLONGTERM/");
    } finally {
      await s3.close();
    }
  });
});
