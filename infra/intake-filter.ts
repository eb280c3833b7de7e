/**
 * Which table stream records become intake queue messages: inserts of submission items only.
 * Plain data (no CDK import) so the EventBridge Pipe (infra/intake-pipeline.ts), its test and
 * the local stream follower all apply the same rule.
 * Pattern syntax: https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-event-filtering.html
 */
export const INTAKE_FILTER_PATTERN = {
  eventName: ["INSERT"],
  dynamodb: { NewImage: { type: { S: ["submission"] } } },
} as const;
