/**
 * The single table's shape, shared by the CDK stack (infra/data-store.ts) and the local stack
 * (infra/local/emulators.ts), so both build exactly the same table.
 */
export const TABLE = {
  partitionKey: "pk",
  sortKey: "sk",
  indexes: [{ name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" }],
  timeToLiveAttribute: "ttl",
  /**
   * The stream feeds the intake queue (the EventBridge Pipe in AWS, a stream follower locally)
   * and the bookkeeper (functions/bookkeeping/): its REMOVE records carry the removed item (the
   * old image), whose form and spam state say which count a deletion lowers.
   */
  streamView: "NEW_AND_OLD_IMAGES",
} as const;

export const GSI1 = TABLE.indexes[0].name;
