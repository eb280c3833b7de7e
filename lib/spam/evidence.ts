import { sha256Hex } from "../ids";
import { incrementWindowAndSubWindow } from "../store/counters";
import { deleteDuplicateMarker, duplicateMarkerLive, putDuplicateMarker } from "../store/duplicate-markers";
import type { RawValue } from "../store/shapes";
import type { WebhookSource } from "../store/webhooks";
import { DUPLICATE_WINDOW_SECONDS, type SpamContext, signalsFor } from "./signals";

/** Data compared for duplicates: keys sorted, values trimmed, white space runs collapsed, lower-cased. */
export function canonicalData(data: Record<string, RawValue>): string {
  const norm = (v: string) => v.trim().replace(/\s+/g, " ").toLowerCase();
  return JSON.stringify(
    Object.keys(data)
      .sort()
      .map((key) => {
        const value = data[key] ?? "";
        return [key, Array.isArray(value) ? value.map(norm) : norm(value)];
      }),
  );
}

/** The duplicate marker's id: a hash of the client IP and the canonical data (no data is kept). */
export const fingerprint = (ip: string, data: Record<string, RawValue>) => sha256Hex(`${ip}\n${canonicalData(data)}`);

/**
 * The table's part of the spam evidence, read in parallel and only for the signals that apply
 * to the webhook's source: the per-IP counters (fixed windows shared by every function
 * instance; this request counts) and whether the duplicate marker exists. An expired marker
 * that DynamoDB has not deleted yet counts as absent.
 */
export async function gatherEvidence(
  source: WebhookSource,
  ip: string,
  print: string,
  now: number,
): Promise<Pick<SpamContext, "duplicate" | "ipRate">> {
  const applicable = signalsFor(source);
  const [rate, duplicate] = await Promise.all([
    // The hour's and the minute's counts live on one item: one write per submission, not two.
    applicable.includes("ip_rate") ? incrementWindowAndSubWindow("spam-ip", ip, 3600, 60, now) : undefined,
    applicable.includes("duplicate") ? duplicateMarkerLive(print, now) : false,
  ]);
  return {
    duplicate,
    ipRate: { minute: rate?.subWindow ?? 0, hour: rate?.window ?? 0 },
  };
}

/**
 * Remembers (IP, data) for the duplicate window. Call it only once the submission is stored:
 * a request refused on the way (a failed captcha, a provider timeout, a failed write) must
 * leave no marker, so its retry is not counted as a duplicate.
 */
export async function recordEvidence(source: WebhookSource, print: string, now: number): Promise<void> {
  if (!signalsFor(source).includes("duplicate")) return;
  await putDuplicateMarker(print, now, DUPLICATE_WINDOW_SECONDS);
}

/** Removes the duplicate marker of a submission whose write failed (its retry is no duplicate). */
export async function forgetEvidence(source: WebhookSource, print: string): Promise<void> {
  if (!signalsFor(source).includes("duplicate")) return;
  await deleteDuplicateMarker(print);
}
