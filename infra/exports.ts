import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";

/** How long an export file is kept: its download link lives 15 minutes (lib/store/exports.ts). */
export const EXPORT_RETENTION_DAYS = 1;

/**
 * The private bucket that large submission exports are written to (lib/export.ts). Nobody reads
 * it but the export function's presigned links: all public access blocked, ACLs disabled,
 * S3-managed encryption, TLS-only bucket policy, and every object expires after a day.
 * Exports are copies, not data of record: the bucket is not retained, and CloudFormation, which
 * refuses to delete a bucket that still holds objects, has it emptied first by CDK's auto-delete
 * custom resource (docs/deployment.md, "Deleting the stack"), rather than failing for a day after any export.
 */
export class ExportStorage extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.bucket = new Bucket(this, "Bucket", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        {
          id: "ExpireExports",
          expiration: Duration.days(EXPORT_RETENTION_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: "AwsSolutions-S1",
        reason:
          "The bucket holds only short-lived export copies (expired after a day) written by one function and read through its presigned links; every export request is already in the HTTP API's access log and the function's log. Server access logs would need a second bucket for no added control.",
      },
    ]);
  }
}
