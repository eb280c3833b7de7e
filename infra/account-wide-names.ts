import { Names, Stack } from "aws-cdk-lib";
import {
  type CfnOriginAccessControl,
  type CfnResponseHeadersPolicy,
  type ResponseHeadersPolicy,
  S3OriginAccessControl,
} from "aws-cdk-lib/aws-cloudfront";

/** Room left for `-<region>`: the longest region names (`ap-southeast-5`, `us-isob-east-1`) have 14 characters. */
const REGION_SUFFIX_LENGTH = 16;

/** CloudFront's name length limits: a response headers policy's 128, an origin access control's 64. */
const MAX_LENGTH = { headersPolicy: 128, originAccessControl: 64 } as const;

/**
 * Names a resource whose names are unique per account, not per region: CloudFront's response
 * headers policies and origin access controls. CDK's default name comes from the construct path
 * alone, which is the same for the same stack deployed in a second region of the account, so that
 * deployment would fail on a name the first one holds. The name gets the region (a token when the
 * stack is environment-agnostic). Set on the CloudFormation resource, so the logical id stays and
 * an existing deployment updates the name in place. (CloudFront Functions already carry the region
 * in CDK's default name.)
 */
export function nameWithRegion(resource: ResponseHeadersPolicy | S3OriginAccessControl): void {
  const isAccessControl = resource instanceof S3OriginAccessControl;
  const maxLength = isAccessControl ? MAX_LENGTH.originAccessControl : MAX_LENGTH.headersPolicy;
  const base = Names.uniqueResourceName(resource, { maxLength: maxLength - REGION_SUFFIX_LENGTH, separator: "-" });
  const name = `${base}-${Stack.of(resource).region}`;
  if (isAccessControl) {
    (resource.node.defaultChild as CfnOriginAccessControl).addPropertyOverride("OriginAccessControlConfig.Name", name);
  } else {
    (resource.node.defaultChild as CfnResponseHeadersPolicy).addPropertyOverride("ResponseHeadersPolicyConfig.Name", name);
  }
}
