import { createS3Client, type S3ObjectClient } from "../aws/s3";
import { loadConfig } from "../config";

/**
 * Large submission exports live in a private bucket (infra/exports.ts): never public, SSL only,
 * objects expire after a day. They are handed out as presigned GET links signed with the
 * export function's own credentials, which may read only `exports/*`.
 */
export const EXPORT_PREFIX = "exports/";

/**
 * How long a download link works. A presigned URL also stops working when the credentials that
 * signed it expire (a Lambda role's session outlives 15 minutes), whichever comes first:
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-presigned-url.html
 */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

let client: S3ObjectClient | undefined;

/**
 * Built once from config (lib/aws/s3.ts: a signed fetch and presigned URLs, not the S3 client);
 * a local endpoint (the S3 emulator) is addressed path-style.
 */
export function s3(): S3ObjectClient {
  if (!client) {
    const config = loadConfig();
    client = createS3Client({ region: config.AWS_REGION, endpoint: config.S3_ENDPOINT });
  }
  return client;
}

export function bucket(): string {
  const name = loadConfig().EXPORT_BUCKET;
  // Only the export and import routes and the consumer are given the bucket (route entry `bucket`, `imports`).
  if (!name) throw new Error("EXPORT_BUCKET is not configured for this function");
  return name;
}

/** `exports/<orgId>/<formId>/<timestamp>-<random>.<ext>`: one object per export, never overwritten. */
export const exportObjectKey = (orgId: string, formId: string, stamp: string, random: string, extension: string) =>
  `${EXPORT_PREFIX}${orgId}/${formId}/${stamp}-${random}.${extension}`;

/** Stores an export and answers a link that downloads it as `filename` for DOWNLOAD_LINK_SECONDS. */
export async function storeExport(
  key: string,
  body: Buffer,
  contentType: string,
  filename: string,
): Promise<{ url: string; expiresAt: string }> {
  const name = bucket();
  await s3().putObject(name, key, body, contentType);
  const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_SECONDS * 1000).toISOString();
  const url = await s3().presignGet(name, key, {
    expiresIn: DOWNLOAD_LINK_SECONDS,
    responseContentType: contentType,
    responseContentDisposition: `attachment; filename="${filename}"`,
  });
  return { url, expiresAt };
}
