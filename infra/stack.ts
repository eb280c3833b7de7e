import { CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import type { Construct } from "constructs";
import { DataStore } from "./data-store";
import { requirePlatformAdmins } from "./environment";
import { ExportStorage } from "./exports";
import { InletHttpApi } from "./http-api";
import { IntakePipeline } from "./intake-pipeline";

/**
 * Inlet in one stack: the table, the intake pipeline fed by its stream, and the HTTP API with one
 * function per route. Construct ids here are part of every logical id: never rename them, or
 * CloudFormation replaces (and, for the retained table and queues, orphans) the resources.
 */
export class InletStack extends Stack {
  readonly dataStore: DataStore;
  readonly intake: IntakePipeline;
  readonly http: InletHttpApi;
  readonly exports: ExportStorage;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    requirePlatformAdmins(this);

    this.dataStore = new DataStore(this, "DataStore");
    this.intake = new IntakePipeline(this, "Intake", { table: this.dataStore.table });
    this.exports = new ExportStorage(this, "Exports");
    this.http = new InletHttpApi(this, "Http", {
      table: this.dataStore.table,
      queue: this.intake.queue,
      exportBucket: this.exports.bucket,
    });

    new CfnOutput(this, "OutputApiUrl", { key: "ApiUrl", value: this.http.api.apiEndpoint });
    new CfnOutput(this, "OutputTableName", { key: "TableName", value: this.dataStore.table.tableName });
    new CfnOutput(this, "OutputIntakeQueueUrl", { key: "IntakeQueueUrl", value: this.intake.queue.queueUrl });
    new CfnOutput(this, "OutputDeadLetterQueueUrl", {
      key: "DeadLetterQueueUrl",
      value: this.intake.deadLetterQueue.queueUrl,
    });
  }
}
