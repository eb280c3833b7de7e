import { RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from "aws-cdk-lib/aws-dynamodb";
import { Construct } from "constructs";
import { TABLE } from "../lib/store/table-definition";

/**
 * The single table, built from the same definition as the local stack's table
 * (lib/store/table-definition.ts). On-demand billing, point-in-time recovery, and a stream of
 * new images that feeds the intake pipeline. Retained on stack deletion (not when the first create fails); no physical name, so
 * CloudFormation can replace it if ever needed and two stages can share an account.
 */
export class DataStore extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new Table(this, "Table", {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.timeToLiveAttribute,
      stream: StreamViewType[TABLE.streamView],
      // Kept on stack deletion and on replacement, but deleted when the stack's very first create
      // rolls back: otherwise a failed first deploy leaves an empty table that the next deploy,
      // with a new physical name, never uses (docs/deployment.md, "Retained resources").
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    for (const index of TABLE.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
