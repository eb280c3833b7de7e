import { reserveReferenceNumbers } from "../store/sites";
import { InstanceMap } from "./instance-map";

/**
 * Reference numbers in blocks per warm function instance (hi/lo; docs/data-model.md, "Reference
 * numbers"). The site's sequence item hands out blocks (`ADD seq :size`, one write whatever the
 * size), and the instance gives a block's numbers out itself, lowest first. Numbers are unique
 * per site whichever instance gives them; an instance that stops with numbers left leaves them
 * unused (gaps), and across instances numbers do not follow arrival order.
 *
 * Block sizes keep those gaps small at low traffic: an instance's first block for a site is one
 * number; a block used up within BUSY_MS of being reserved makes the next one twice as large (up
 * to MAX); a block that lasted longer makes it half as large, and after IDLE_MS without a
 * reservation the next is one number again. An instance taking a submission a second or fewer
 * for a site reserves one number at a time and never leaves one unused; a busy one reserves
 * about a second's worth.
 */
export const REFERENCE_BLOCKS = { max: 64, busyMs: 1_000, idleMs: 10_000, sites: 1_000 } as const;

interface Pool {
  /** Reserved numbers not handed out yet, as [next, last] ranges, lowest first. */
  ranges: [number, number][];
  /** The size of the last block reserved (0: none yet), and when it was reserved (epoch ms). */
  size: number;
  reservedAt: number;
  /** The reservation in flight, which concurrent requests in this process wait for rather than each reserving one. */
  pending: Promise<void> | undefined;
}

const pools = new InstanceMap<Pool>(REFERENCE_BLOCKS.sites);

function poolOf(siteId: string): Pool {
  let pool = pools.get(siteId);
  if (!pool) {
    pool = { ranges: [], size: 0, reservedAt: 0, pending: undefined };
    pools.set(siteId, pool);
  }
  return pool;
}

/** The size of the next block, from how long the last one lasted (see above). */
export function nextBlockSize(last: { size: number; reservedAt: number }, now: number): number {
  if (last.size === 0) return 1;
  const lasted = now - last.reservedAt;
  if (lasted < REFERENCE_BLOCKS.busyMs) return Math.min(last.size * 2, REFERENCE_BLOCKS.max);
  if (lasted < REFERENCE_BLOCKS.idleMs) return Math.max(1, Math.floor(last.size / 2));
  return 1;
}

/**
 * Reserves the site's next block into the pool. A Lambda instance serves one request at a time;
 * the local gateway serves many side by side in one process, and there requests that find the
 * pool empty together share one reservation instead of each reserving a block.
 */
function refill(siteId: string, pool: Pool): Promise<void> {
  pool.pending ??= (async () => {
    try {
      const now = Date.now();
      const size = nextBlockSize(pool, now);
      const { first, last } = await reserveReferenceNumbers(siteId, size);
      pool.size = size;
      pool.reservedAt = now;
      pool.ranges.push([first, last]);
      pool.ranges.sort((a, b) => a[0] - b[0]);
    } finally {
      pool.pending = undefined;
    }
  })();
  return pool.pending;
}

function takeLowest(pool: Pool): number | undefined {
  const range = pool.ranges[0];
  if (!range) return undefined;
  const n = range[0];
  if (n === range[1]) pool.ranges.shift();
  else range[0] = n + 1;
  return n;
}

/**
 * Makes sure the instance holds a number for the site, reserving a block when it holds none:
 * called in the round trip of the spam evidence, by requests that cannot be repeats. A request
 * refused after this leaves its numbers to the next one, so a refusal skips no number.
 */
export async function holdReferenceNumber(siteId: string): Promise<void> {
  const pool = poolOf(siteId);
  if (pool.ranges.length === 0) await refill(siteId, pool);
}

/**
 * Hands out the site's next number: the lowest the instance holds, after reserving a block if it
 * holds none (one more round trip, for requests that only now know they are no repeat). Taken
 * just before the submission's write: a number is skipped only when what follows fails.
 */
export async function takeReferenceNumber(siteId: string): Promise<number> {
  const pool = poolOf(siteId);
  for (;;) {
    const n = takeLowest(pool);
    if (n !== undefined) return n;
    // Each reservation adds numbers; in the local gateway a concurrent request may take them first.
    await refill(siteId, pool);
  }
}

/** Forgets every block this instance holds, as a new instance starts (the bench measures from there). */
export function forgetReferenceBlocks(): void {
  pools.clear();
}
