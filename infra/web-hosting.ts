import { Duration, Fn, RemovalPolicy, Stack } from "aws-cdk-lib";
import type { IHttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  S3OriginAccessControl,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { PREFLIGHT_HEADERS } from "../lib/intake/cors";
import { nameWithRegion } from "./account-wide-names";
import type { WebDomain } from "./environment";
import { FAMILY_PATH_PREFIX } from "./http-api";
import {
  DASHBOARD_CSP,
  DASHBOARD_CUSTOM_HEADERS,
  HSTS_MAX_AGE_SECONDS,
  IMMUTABLE_CACHE_CONTROL,
  INDEX_CACHE_CONTROL,
  OPENAPI_DOCUMENT_HEADERS,
  OPENAPI_DOCUMENT_PATH,
} from "./web-headers";

/** lib/http/client-ip.ts's EDGE_HEADER, as CloudFront sends it. */
export const EDGE_HEADER_NAME = "X-Inlet-Edge";

/** The API's path pattern: everything under it goes to the HTTP API, never to the bucket. */
export const API_PATH_PATTERN = "/api/*";

/** Intake's path pattern: the same origin as the API, with CORS on every answer (below). */
export const INTAKE_PATH_PATTERN = `${FAMILY_PATH_PREFIX.intake}*`;

/** Every answer's: HSTS (infra/web-headers.ts) and no content sniffing. */
const TRANSPORT_HEADERS = {
  strictTransportSecurity: {
    accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
    includeSubdomains: true,
    override: true,
  },
  contentTypeOptions: { override: true },
};

const listOf = (header: string) => header.split(",").map((item) => item.trim());

/**
 * Client-side routing (viewer request, default behaviour only, so `/api/*` is untouched): a path
 * whose last segment has no dot is a route of the app, not a file, and gets the app's
 * index.html; files (`/assets/app-1a2b.js`, `/favicon.svg`) pass as they are. Custom error
 * responses would do it after the fact, and would also turn the API's own 404s into the page.
 * cloudfront-js-2.0: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
 */
export const SPA_ROUTING_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.lastIndexOf(".") < uri.lastIndexOf("/")) {
    request.uri = "/index.html";
  }
  return request;
}
`;

export interface WebHostingProps {
  /** The HTTP API, origin of `/api/*`. */
  api: IHttpApi;
  /** The dashboard's build folder (web/dist; infra/web-build.ts). */
  webDist: string;
  /** An optional custom domain with its us-east-1 certificate (infra/environment.ts, webDomainFromContext). */
  domain?: WebDomain | undefined;
  /** An optional WAF web ACL for the distribution (infra/sign-in-firewall.ts, webAclArnFromContext). */
  webAclArn?: string | undefined;
}

/** The build's folder holding the OpenAPI document (infra/web-build.ts puts it there). */
const OPENAPI_DOCUMENT_FOLDER = `${OPENAPI_DOCUMENT_PATH.split("/")[1]}/*`;

/**
 * One CloudFront distribution for the dashboard and the API (docs/deployment.md, "Hosting"):
 * the default behaviour serves the app's files from a private bucket through origin access
 * control, `/api/*` goes to the HTTP API uncached with everything the viewer sent but Host,
 * except the API's OpenAPI document, a file of the same bucket.
 */
export class WebHosting extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<domain>`: the custom domain when given, else the distribution's own. The service's BASE_URL. */
  readonly url: string;
  /**
   * The token CloudFront sends to the API in `X-Inlet-Edge` (lib/http/client-ip.ts), as a
   * CloudFormation dynamic reference: resolved at deploy time, never in the template.
   */
  readonly edgeSecret: string;
  /** The role of the deployment custom resource's function (CDK's singleton, at the stack's top level). */
  readonly deploymentRole: Role;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);

    this.bucket = new Bucket(this, "BucketApp", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Build output, deployed again by every `cdk deploy`: deleted with the stack. The
      // deployments below cannot empty it themselves: with no key prefix their handler treats
      // the bucket as owned by a deployment (its aws-cdk:cr-owned tag) and never deletes its
      // objects, so `cdk destroy` would end in DELETE_FAILED, and a first create failing after
      // the upload in ROLLBACK_FAILED. CDK's auto-delete custom resource empties it whenever
      // CloudFormation deletes it (docs/deployment.md, "Deleting the stack").
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const routing = new EdgeFunction(this, "FunctionSpaRouting", {
      comment: "Inlet dashboard: paths without a file extension answer index.html",
      code: FunctionCode.fromInline(SPA_ROUTING_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const dashboardHeaders = new ResponseHeadersPolicy(this, "HeadersDashboard", {
      comment: "Inlet dashboard: infra/web-headers.ts",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_CSP, override: true },
        ...TRANSPORT_HEADERS,
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(DASHBOARD_CUSTOM_HEADERS).map(([header, value]) => ({ header, value, override: true })),
      },
    });

    // The API's answers: transport security and no sniffing only. The functions set their own
    // Content-Security-Policy on the HTML pages they answer and their own CORS headers; a frame
    // ban would break forms embedded in an iframe, whose thank-you page shows in that frame (the
    // intake lets the site's domain frame it: lib/intake/html-page.ts, frameAncestors).
    const apiHeaders = new ResponseHeadersPolicy(this, "HeadersApi", {
      comment: "Inlet API: HSTS and nosniff",
      securityHeadersBehavior: {
        ...TRANSPORT_HEADERS,
      },
    });

    // Intake's answers carry CORS (lib/intake/cors.ts) so a page's script can read why a post
    // failed. The functions set it on theirs; API Gateway's own answers have none: its 429 when a
    // route's throttle is exceeded, its 500/503 when the integration fails, and an HTTP API has no
    // gateway responses to add headers to (those are REST APIs'). This policy adds the same
    // headers to every intake answer that lacks them (OriginOverride false: a function's own
    // headers pass unchanged). CloudFront adds CORS headers to answers to requests with an Origin
    // header, which is every cross-origin fetch. docs/operations.md, "CORS on the gateway's answers".
    const intakeHeaders = new ResponseHeadersPolicy(this, "HeadersIntake", {
      comment: "Inlet intake: HSTS, nosniff and CORS on every answer, API Gateway's own included",
      securityHeadersBehavior: {
        ...TRANSPORT_HEADERS,
      },
      corsBehavior: {
        accessControlAllowOrigins: [PREFLIGHT_HEADERS["access-control-allow-origin"]],
        accessControlAllowMethods: listOf(PREFLIGHT_HEADERS["access-control-allow-methods"]),
        accessControlAllowHeaders: listOf(PREFLIGHT_HEADERS["access-control-allow-headers"]),
        accessControlMaxAge: Duration.seconds(Number(PREFLIGHT_HEADERS["access-control-max-age"])),
        accessControlAllowCredentials: false,
        originOverride: false,
      },
    });

    // The OpenAPI document: a static file under the API's path, readable by any page's script
    // (a client generator, an API explorer); its content type and caching are the object's own
    // (the deployment below).
    const documentHeaders = new ResponseHeadersPolicy(this, "HeadersApiDocument", {
      comment: "Inlet OpenAPI document: HSTS, nosniff, readable from any origin",
      securityHeadersBehavior: {
        ...TRANSPORT_HEADERS,
      },
      corsBehavior: {
        accessControlAllowOrigins: [OPENAPI_DOCUMENT_HEADERS["access-control-allow-origin"]],
        accessControlAllowMethods: ["GET", "HEAD"],
        accessControlAllowHeaders: ["*"],
        accessControlAllowCredentials: false,
        originOverride: true,
      },
    });

    // The API's hostname from its endpoint (`https://<id>.execute-api.<region>.amazonaws.com`),
    // not from the stage: the stage waits for every route's nested stack, whose functions take
    // this distribution's URL as BASE_URL, so naming the stage here would be a cycle.
    // Behind CloudFront the API sees the edge's address, shared by every visitor of that edge;
    // the visitor's is the last X-Forwarded-For hop, which the functions trust only from a request
    // carrying this token (lib/http/client-ip.ts). CloudFront replaces a viewer's header of the
    // same name with its own, so a visitor cannot present it.
    const edge = new Secret(this, "SecretEdge", {
      description: "Inlet: CloudFront's token to the API (X-Inlet-Edge), so the functions may trust X-Forwarded-For",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    this.edgeSecret = edge.secretValue.unsafeUnwrap();
    const apiOrigin = new HttpOrigin(Fn.parseDomainName(props.api.apiEndpoint), {
      customHeaders: { [EDGE_HEADER_NAME]: this.edgeSecret },
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // API Gateway's integration limit is 30 s; CloudFront's default read timeout matches it.
      readTimeout: Duration.seconds(30),
    });

    const bucketOrigin = S3BucketOrigin.withOriginAccessControl(this.bucket);

    const certificate = props.domain
      ? Certificate.fromCertificateArn(this, "Certificate", props.domain.certificateArn)
      : undefined;

    this.distribution = new Distribution(this, "Distribution", {
      comment: "Inlet: dashboard and API",
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultRootObject: "index.html",
      ...(props.domain && certificate
        ? {
            domainNames: [props.domain.domainName],
            certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: bucketOrigin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        // Honours the objects' Cache-Control (below); compresses.
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: dashboardHeaders,
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: routing }],
      },
      // In order of precedence: CloudFront takes the first pattern a path matches.
      additionalBehaviors: {
        // A file of the bucket under /api/ (a constant between deploys: no function answers it),
        // compressed: about 174 KB of JSON, 11 KB gzipped.
        [OPENAPI_DOCUMENT_PATH]: {
          origin: bucketOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          compress: true,
          responseHeadersPolicy: documentHeaders,
        },
        [INTAKE_PATH_PATTERN]: {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: intakeHeaders,
          compress: false,
        },
        [API_PATH_PATTERN]: {
          origin: apiOrigin,
          // Secrets travel in intake URLs and headers: a plain-HTTP request is refused (403),
          // not redirected, so an integration set up with http:// fails at once.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: apiHeaders,
          compress: false,
        },
      },
    });
    this.url = `https://${props.domain?.domainName ?? this.distribution.distributionDomainName}`;

    // CloudFront keeps these names per account: a second region's deployment needs its own.
    for (const policy of [dashboardHeaders, apiHeaders, intakeHeaders, documentHeaders]) nameWithRegion(policy);
    for (const control of this.distribution.node.findAll().filter((c) => c instanceof S3OriginAccessControl)) {
      nameWithRegion(control);
    }

    // One log group for the deployment custom resource's function (a singleton shared by both).
    const deploymentLogs = new LogGroup(this, "LogGroupDeployment", {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Its own role writing to that log group only, instead of AWSLambdaBasicExecutionRole (every
    // log group of the account); the deployments add their S3 and invalidation grants to it.
    this.deploymentRole = new Role(this, "RoleDeployment", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: "Copies the dashboard's build into its bucket and invalidates the distribution",
    });
    deploymentLogs.grantWrite(this.deploymentRole);
    // Vite's manifest (web/dist/.vite) is for the size-budget test, not for browsers.
    const source = Source.asset(props.webDist, { exclude: [".vite", ".vite/**"] });
    // Hashed files first, kept across deploys (prune: false) so a browser still holding the
    // previous index.html can load the chunks it names.
    const assets = new BucketDeployment(this, "DeploymentAssets", {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ["*"],
      include: ["assets/*"],
      prune: false,
      retainOnDelete: false,
      cacheControl: [CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
      memoryLimit: 512,
      logGroup: deploymentLogs,
      role: this.deploymentRole,
    });
    // The OpenAPI document with its own type and caching (infra/web-headers.ts).
    const document = new BucketDeployment(this, "DeploymentApiDocument", {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ["*"],
      include: [OPENAPI_DOCUMENT_FOLDER],
      prune: false,
      retainOnDelete: false,
      cacheControl: [CacheControl.fromString(OPENAPI_DOCUMENT_HEADERS["cache-control"])],
      contentType: OPENAPI_DOCUMENT_HEADERS["content-type"],
      memoryLimit: 512,
      logGroup: deploymentLogs,
      role: this.deploymentRole,
    });
    // Then index.html and the other unhashed files, revalidated on every load; the edge's copies
    // (the document's too) are invalidated once they are in place.
    const pages = new BucketDeployment(this, "DeploymentPages", {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ["assets/*", OPENAPI_DOCUMENT_FOLDER],
      prune: true,
      retainOnDelete: false,
      cacheControl: [CacheControl.fromString(INDEX_CACHE_CONTROL)],
      distribution: this.distribution,
      distributionPaths: ["/*"],
      memoryLimit: 512,
      logGroup: deploymentLogs,
      role: this.deploymentRole,
    });
    pages.node.addDependency(assets, document);

    this.suppressFindings({ customDomain: props.domain !== undefined, webAcl: props.webAclArn !== undefined }, edge);
  }

  private suppressFindings(options: { customDomain: boolean; webAcl: boolean }, edge: Secret): void {
    NagSuppressions.addResourceSuppressions(edge, [
      {
        id: "AwsSolutions-SMG4",
        reason:
          "Not a credential to data: it only tells the functions that a request came through this distribution, so its X-Forwarded-For names the visitor. A rotation would have to change CloudFront's origin header and every function's environment at the same moment (docs/deployment.md, Hosting).",
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: "AwsSolutions-S1",
        reason:
          "The bucket holds the dashboard's public build output and is read only by this distribution through origin access control; writes come only from the deployment custom resource during `cdk deploy` (recorded by CloudTrail). Server access logs would record nothing but CloudFront's own reads.",
      },
    ]);
    // The deployment's grants are written by aws-s3-deployment itself: read on the CDK asset
    // bucket's objects (the zipped build), read/write/delete on this bucket's objects (sync with
    // prune), and CloudFront invalidations, which it grants on "*".
    NagSuppressions.addResourceSuppressions(
      this.deploymentRole,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "Written by aws-s3-deployment's BucketDeployment: it reads the build's zip from the CDK asset bucket, syncs it into this app bucket (put, list, delete when pruning), and invalidates the distribution, for which it grants cloudfront:CreateInvalidation/GetInvalidation on '*'. Each wildcard is one of those; the role belongs to the deployment's function alone.",
          appliesTo: [
            "Action::s3:GetObject*",
            "Action::s3:GetBucket*",
            "Action::s3:List*",
            "Action::s3:DeleteObject*",
            "Action::s3:Abort*",
            "Resource::*",
            { regex: "/^Resource::<WebBucketApp[A-Za-z0-9]+\\.Arn>\\/\\*$/" },
            { regex: "/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-<AWS::Region>\\/\\*$/" },
            // The same bucket when the stack is given an account and region (`env`).
            { regex: "/^Resource::arn:aws[a-z-]*:s3:::cdk-[a-z0-9]+-assets-\\d{12}-[a-z0-9-]+\\/\\*$/" },
          ],
        },
      ],
      true,
    );
    const handlers = Stack.of(this)
      .node.findAll()
      .filter((c) => c.node.id.startsWith("Custom::CDKBucketDeployment"));
    if (handlers.length !== 1) throw new Error(`Expected one BucketDeployment function, found ${handlers.length}`);
    NagSuppressions.addResourceSuppressions(handlers, [
      {
        id: "AwsSolutions-L1",
        reason:
          "The BucketDeployment function's runtime and code come together from aws-cdk-lib (its Python handler with the AWS CLI layer); they are upgraded with aws-cdk-lib, not pinned here.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: "AwsSolutions-CFR1",
        reason:
          "Forms are embedded on sites anywhere and their visitors submit from anywhere; a geo restriction would drop real leads. Abuse is handled by the API's per-route throttles, per-key rate limits and spam scoring.",
      },
      ...(options.webAcl
        ? []
        : [
            {
              id: "AwsSolutions-CFR2",
              reason:
                "No WAF web ACL by default: it costs a monthly fee per ACL and rule plus $0.60 per million requests, on top of API Gateway's per-route throttles and the functions' own rate limits and spam scoring. The optional sign-in firewall (infra/sign-in-firewall.ts, -c webAclArn=...) attaches one (docs/deployment.md, Sign-in firewall).",
            },
          ]),
      {
        id: "AwsSolutions-CFR3",
        reason:
          "Standard (legacy) access logs record every request's query string, and intake URLs may carry the webhook secret as ?key= (docs/intake.md): logging it would store secrets. API requests are logged by the HTTP API's access log (path only, no query); the dashboard's static files carry no data.",
      },
      ...(options.customDomain
        ? []
        : [
            {
              id: "AwsSolutions-CFR4",
              reason:
                "Without a custom domain the distribution uses CloudFront's default *.cloudfront.net certificate, whose minimum protocol CloudFront fixes at TLSv1; with `-c domainName=… -c certificateArn=…` the minimum is TLSv1.2_2021.",
            },
          ]),
    ]);
  }
}
