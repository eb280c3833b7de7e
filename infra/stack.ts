import { CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import type { Construct } from "constructs";
import { InletAlarms } from "./alarms";
import { ApiFamilyMetrics } from "./api-metrics";
import { Bookkeeping } from "./bookkeeping";
import { DataStore } from "./data-store";
import { DigestSchedule } from "./digests";
import { requirePlatformAdmins, setEnvironment, webDomainFromContext } from "./environment";
import { ExportStorage } from "./exports";
import { InletHttpApi } from "./http-api";
import { InletFunction } from "./inlet-function";
import { IntakePipeline } from "./intake-pipeline";
import { alarmEmailFromContext, requireSender } from "./operator-context";
import { GRAPHED_ROUTES, OpsDashboard } from "./ops-dashboard";
import { webAclArnFromContext } from "./sign-in-firewall";
import { WebHosting } from "./web-hosting";

export interface InletStackProps extends StackProps {
  /** The dashboard's build folder, deployed to the app bucket (infra/web-build.ts, ensureWebBuild). */
  webDist: string;
}

/**
 * Inlet in one stack: the table, the intake pipeline and the bookkeeper fed by its stream, the HTTP API with one
 * function per route, and the CloudFront distribution that serves the dashboard and the API. Construct ids here are part of every logical id: never rename them, or
 * CloudFormation replaces (and, for the retained table and queues, orphans) the resources.
 */
export class InletStack extends Stack {
  readonly dataStore: DataStore;
  readonly intake: IntakePipeline;
  readonly bookkeeping: Bookkeeping;
  readonly digests: DigestSchedule;
  readonly http: InletHttpApi;
  readonly exports: ExportStorage;
  readonly web: WebHosting;
  readonly alarms: InletAlarms;
  readonly opsDashboard: OpsDashboard;

  constructor(scope: Construct, id: string, props: InletStackProps) {
    const { webDist, ...stackProps } = props;
    super(scope, id, stackProps);
    requirePlatformAdmins(this);
    requireSender(this);
    const domain = webDomainFromContext(this);

    this.dataStore = new DataStore(this, "DataStore");
    // The exports bucket first: the consumer reads an import's rows from it (lib/import-job.ts).
    this.exports = new ExportStorage(this, "Exports");
    this.intake = new IntakePipeline(this, "Intake", { table: this.dataStore.table, exportBucket: this.exports.bucket });
    this.bookkeeping = new Bookkeeping(this, "Bookkeeping", { table: this.dataStore.table });
    this.digests = new DigestSchedule(this, "Digests", { table: this.dataStore.table });
    this.http = new InletHttpApi(this, "Http", {
      table: this.dataStore.table,
      queue: this.intake.queue,
      exportBucket: this.exports.bucket,
    });
    this.web = new WebHosting(this, "Web", { api: this.http.api, webDist, domain, webAclArn: webAclArnFromContext(this) });

    // Every function's BASE_URL (intake URLs, email links, the session cookie's CSRF origin) is
    // where the dashboard is served. The functions depend on the distribution, the distribution
    // on the API's id only (infra/web-hosting.ts), so there is no cycle. EDGE_SECRET lets them
    // trust the visitor's address CloudFront forwards (lib/http/client-ip.ts).
    for (const construct of this.node.findAll()) {
      if (construct instanceof InletFunction) {
        setEnvironment(construct.fn, { BASE_URL: this.web.url, EDGE_SECRET: this.web.edgeSecret });
      }
    }

    // aws-cdk#31211 (infra/intake-pipeline.ts): the pipe is created last, after the stage,
    // which waits for every route family's stack and so for the distribution. Records written
    // before it starts are still read: it starts at the stream's oldest record (24 h).
    this.intake.pipe.node.addDependency(this.http.stage);

    const families = new ApiFamilyMetrics(this, "ApiMetrics", { accessLogs: this.http.accessLogs });
    this.alarms = new InletAlarms(this, "Alarms", {
      table: this.dataStore.table,
      queue: this.intake.queue,
      intakeFamily: families.families.intake,
      existing: [
        this.http.serverErrorAlarm,
        this.intake.deadLetterAlarm,
        this.intake.consumerErrorAlarm,
        ...this.bookkeeping.alarms,
        ...(this.intake.emailEvents?.alarms ?? []),
        this.digests.alarm,
      ],
      email: alarmEmailFromContext(this),
    });
    const graphed = new Map(
      GRAPHED_ROUTES.map((route) => {
        const fn = this.http.functions.get(route);
        if (!fn) throw new Error(`The dashboard graphs ${route}, which is not in functions/routes.ts`);
        return [route as string, fn.fn] as const;
      }),
    );
    graphed.set("consumer", this.intake.consumer.fn);
    this.opsDashboard = new OpsDashboard(this, "Operations", {
      families: families.families,
      functions: graphed,
      table: this.dataStore.table,
      queue: this.intake.queue,
      deadLetterQueue: this.intake.deadLetterQueue,
      pipe: this.intake.pipe,
    });

    new CfnOutput(this, "OutputDashboardUrl", { key: "DashboardUrl", value: this.web.url });
    new CfnOutput(this, "OutputOperationsDashboardUrl", {
      key: "OperationsDashboardUrl",
      description: "The CloudWatch dashboard of this deployment (docs/operations.md)",
      value: this.opsDashboard.url,
    });
    new CfnOutput(this, "OutputAlarmTopicArn", {
      key: "AlarmTopicArn",
      description: "Every alarm notifies this SNS topic; subscribe with -c alarmEmail=... or in the console",
      value: this.alarms.topic.topicArn,
    });
    new CfnOutput(this, "OutputDistributionDomainName", {
      key: "DistributionDomainName",
      description: "Point the custom domain's DNS (CNAME or alias) here",
      value: this.web.distribution.distributionDomainName,
    });

    new CfnOutput(this, "OutputDigestsFunctionName", {
      key: "DigestsFunctionName",
      description: 'The hourly digest run; invoke it with {"time": "<hour>"} to run a missed hour again',
      value: this.digests.fn.fn.functionName,
    });
    new CfnOutput(this, "OutputApiUrl", { key: "ApiUrl", value: this.http.api.apiEndpoint });
    new CfnOutput(this, "OutputTableName", { key: "TableName", value: this.dataStore.table.tableName });
    new CfnOutput(this, "OutputIntakeQueueUrl", { key: "IntakeQueueUrl", value: this.intake.queue.queueUrl });
    new CfnOutput(this, "OutputDeadLetterQueueUrl", {
      key: "DeadLetterQueueUrl",
      value: this.intake.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, "OutputBookkeeperDeadLetterQueueUrl", {
      key: "BookkeeperDeadLetterQueueUrl",
      description: "Stream batches the bookkeeper gave up (docs/operations.md, Bookkeeper)",
      value: this.bookkeeping.deadLetterQueue.queueUrl,
    });
    if (this.intake.emailEvents) {
      new CfnOutput(this, "OutputEmailEventsDeadLetterQueueUrl", {
        key: "EmailEventsDeadLetterQueueUrl",
        description: "SES bounce and complaint events not recorded (docs/operations.md, SES events)",
        value: this.intake.emailEvents.deadLetterQueue.queueUrl,
      });
      new CfnOutput(this, "OutputEmailEventsFunctionName", {
        key: "EmailEventsFunctionName",
        description: "The function that records SES bounce and complaint events; replay a lost event to it",
        value: this.intake.emailEvents.fn.fn.functionName,
      });
    }
  }
}
