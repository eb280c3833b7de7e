import { Match, type Template } from "aws-cdk-lib/assertions";
import type { CfnBucket } from "aws-cdk-lib/aws-s3";
import { ROUTES, type RouteDef } from "../../../functions/routes";
import { EXPORT_RETENTION_DAYS } from "../../../infra/exports";
import {
  asList,
  expectPrivateBucket,
  functionOf,
  isAutoDeleteStatement,
  loadApp,
  type Resource,
  type Statement,
  statementsOf,
} from "./support";

const routes: readonly RouteDef[] = ROUTES;

let template: Template;
let resources: Record<string, Resource>;
let exportBucketId: string;

beforeAll(() => {
  const app = loadApp();
  ({ template, resources } = app);
  exportBucketId = app.stack.getLogicalId(app.stack.exports.bucket.node.defaultChild as CfnBucket);
});

describe("data store", () => {
  test("the table matches lib/store/table-definition.ts, with PITR, TTL, stream and gsi1", () => {
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      BillingMode: "PAY_PER_REQUEST",
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // New and old images: a REMOVE carries the removed submission for the bookkeeper.
      StreamSpecification: { StreamViewType: "NEW_AND_OLD_IMAGES" },
      TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: "gsi1",
          KeySchema: [
            { AttributeName: "gsi1pk", KeyType: "HASH" },
            { AttributeName: "gsi1sk", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
      TableName: Match.absent(),
    });
  });

  test("stateful resources are retained (except when the first create fails) and keep their logical ids", () => {
    // Renaming a construct id changes these and makes CloudFormation orphan the retained
    // resource and create an empty one: update these only with a migration plan.
    const stateful = Object.entries(resources).filter(([, r]) => ["AWS::DynamoDB::Table", "AWS::SQS::Queue"].includes(r.Type));
    expect(stateful.map(([id]) => id).sort()).toEqual(
      [
        "DataStoreTable1E9F5574",
        "IntakeQueueDeadLetter92F727E2",
        "IntakeQueueIntake3F254B08",
        "IntakeQueueEmailEventsDeadLetterEB3D4963",
        // In the bookkeeper's nested stack (infra/bookkeeping.ts).
        "QueueBookkeeperDeadLetter2711C454",
      ].sort(),
    );
    for (const [, r] of stateful) {
      // RETAIN_ON_UPDATE_OR_DELETE: a first deploy that rolls back removes them, so the next
      // deploy does not create a second, empty set beside them.
      expect(r.DeletionPolicy).toBe("RetainExceptOnCreate");
      expect(r.UpdateReplacePolicy).toBe("Retain");
    }
  });
});

describe("export bucket", () => {
  // The app's bucket (infra/web-hosting.ts) is the other one; test/standalone/infra/web.test.ts covers it.
  const bucketId = () => exportBucketId;

  test("is private, encrypted, TLS-only, and expires exports after a day", () => {
    const bucket = resources[bucketId()] as Resource;
    expectPrivateBucket(bucket);
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ Status: "Enabled", ExpirationInDays: EXPORT_RETENTION_DAYS })]),
    );
    expect(EXPORT_RETENTION_DAYS).toBe(1);
    const policies = Object.values(resources).filter(
      (r) => r.Type === "AWS::S3::BucketPolicy" && r.Properties.Bucket?.Ref === bucketId(),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties.PolicyDocument.Statement as Statement[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
      ]),
    );
    // Nothing in the bucket policy grants access (but the auto-delete custom resource's emptying,
    // test/standalone/infra/deploy.test.ts); reading goes through presigned links only.
    expect(statements.filter((st) => st.Effect === "Allow" && !isAutoDeleteStatement(st))).toEqual([]);
  });

  test("only routes with bucket: write may use it: put and get under exports/, and EXPORT_BUCKET; the import route puts under imports/", () => {
    const writers = routes.filter((r) => r.bucket === "write");
    expect(writers.map((r) => r.route)).toEqual(["GET /api/v1/forms/{formId}/submissions/export"]);
    for (const route of routes) {
      const statements = statementsOf(route).filter((st) => asList(st.Action).some((a) => a.startsWith("s3:")));
      const vars = functionOf(route)[1].Properties.Environment.Variables;
      if (route.imports === "write") {
        // The import route puts an import's rows under imports/, nothing else of the bucket.
        expect(statements).toEqual([
          expect.objectContaining({
            Effect: "Allow",
            Action: "s3:PutObject",
            Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId(), "Arn"] }, "/imports/*"]] },
          }),
        ]);
        expect(vars.EXPORT_BUCKET).toEqual({ Ref: bucketId() });
      } else if (route.bucket === "write") {
        expect(statements).toEqual([
          expect.objectContaining({
            Effect: "Allow",
            Action: ["s3:GetObject", "s3:PutObject"],
            Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId(), "Arn"] }, "/exports/*"]] },
          }),
        ]);
        expect(vars.EXPORT_BUCKET).toEqual({ Ref: bucketId() });
      } else {
        expect([route.route, statements]).toEqual([route.route, []]);
        expect(vars.EXPORT_BUCKET).toBeUndefined();
      }
    }
  });

  test("the export route has room for a whole form: 29 s (under API Gateway's 30 s) and more memory", () => {
    const [, fn] = functionOf(routes.find((r) => r.bucket === "write") as RouteDef);
    expect(fn.Properties.Timeout).toBe(29);
    expect(fn.Properties.MemorySize).toBeGreaterThanOrEqual(1024);
  });
});
