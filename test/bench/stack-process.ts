/**
 * The bench's local stack, in its own process (so the load generator does not share its event
 * loop): `startLocalStack` exactly as `npm start` runs it, plus a second gateway on the same
 * handlers that also serves the single-PutItem reference route and the pipeline's figures
 * (`GET /bench/pipeline`: what the stream follower and the queue poller did, for the batching
 * bench). Writes `bench-gateway.json` into DATA_DIR when ready; SIGTERM stops it.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ExtraRoute } from "../../infra/local/gateway";
import { startLocalStack } from "../../infra/local/stack";
import { parseLocalConfig } from "../../lib/config";

const local = parseLocalConfig(process.env);
const { info, pipeline, stop } = await startLocalStack(local);
const { startGateway } = await import("../../infra/local/gateway");
const { singlePutRoute, intakeCallsRoute } = await import("./single-put");
const pipelineRoute: ExtraRoute = {
  def: { route: "GET /bench/pipeline", handler: "bench/pipeline", auth: "public", table: "none" },
  handler: async () => ({
    statusCode: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(pipeline.stats()),
  }),
};
const bench = await startGateway(0, "127.0.0.1", { extraRoutes: [singlePutRoute, intakeCallsRoute, pipelineRoute] });
writeFileSync(
  join(resolve(local.DATA_DIR), "bench-gateway.json"),
  JSON.stringify({ ...info, benchUrl: bench.url.replace("localhost", "127.0.0.1") }),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    bench.server.close();
    void stop().finally(() => process.exit(0));
  });
}
