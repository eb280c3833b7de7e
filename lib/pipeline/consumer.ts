/**
 * The intake queue consumer's Lambda timeout (functions/routes.ts's QUEUE_CONSUMER reads it; the
 * queue's visibility timeout is derived from it). Declared here, in lib, because the claims of
 * ./once.ts go stale after it: a live consumer invocation never holds a claim longer.
 */
export const CONSUMER_TIMEOUT_SECONDS = 30;
