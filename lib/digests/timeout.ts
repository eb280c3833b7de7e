/**
 * The digest function's Lambda timeout (functions/routes.ts's DIGESTS reads it). Declared here, in
 * lib, because a digest's claim (./run.ts) goes stale after it: a live run never holds one longer.
 */
export const DIGEST_RUN_TIMEOUT_SECONDS = 300;
