/**
 * One more gateway on the test stack's table, in a process of its own: a warm intake instance
 * with its own module state (kept configurations, reference blocks), as a second Lambda
 * instance would have. Started by gateway-process.ts with the test stack's environment and its
 * own INTAKE_CACHE_SECONDS; prints its URL as one JSON line. Writes are held to each function's
 * table grant, as in the test stack (infra/local/grants.ts).
 */
import { startGateway } from "../../../../infra/local/gateway";
import { guardTableGrants } from "../../../../infra/local/grants";
import { db } from "../../../../lib/aws/dynamodb";

guardTableGrants(db(), "enforce");
const gateway = await startGateway(0);
process.stdout.write(`${JSON.stringify({ url: gateway.url })}\n`);
