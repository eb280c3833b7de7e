import { searchKeysOf, searchToken } from "../../lib/search-keys";
import type { Form } from "../../lib/store/forms";
import { writeSearchEntries } from "../../lib/store/search-entries";
import { type Account, createSite, signupOwner } from "../support/api";
import { insertForm } from "../support/fixtures";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { makeSubmission, putSubmissions } from "../support/submissions";
import { type HttpHandler, type HttpResult, httpEvent, invoke } from "./events";

/**
 * The inbox's search at two sizes of a form (docs/performance.md, "Search"): the same searches in
 * a form of SMALL and of LARGE submissions, whose read units must be the same, since a search
 * reads one key's entries and their submissions, never the form. The submissions are written
 * straight to the table with BatchWriteItem, and so are the entries of the two keys searched
 * here (the email address and the reference, computed as the bookkeeper does,
 * lib/search-keys.ts): waiting for the local bookkeeper to index 5,000 stream records took over
 * 3 minutes on the shared test machine. It indexes every key of them in the background all the
 * same (the same items); the other keys' entries are other partitions, which no search here reads.
 */

export const SEARCH_SIZES = { small: 50, large: 5_000 } as const;
/**
 * Read units of one search answering the 3 submissions that hold the key (a session's read
 * included). A plain search reads no read state (lib/submission-filters.ts): its `unread` is null.
 */
export const SEARCH_BARS = { rcu: 4, sequentialRoundTrips: 5 } as const;

/** The address 3 submissions of each form hold (the first, a middle and the last written), and one reference. */
export const TARGET_EMAIL = "target.lead@example.com";

export interface SearchFixture {
  owner: Account;
  forms: Record<keyof typeof SEARCH_SIZES, { form: Form; reference: string }>;
}

async function seedForm(owner: Account, siteId: string, size: number, label: string) {
  const form = await insertForm(owner, siteId, { name: `${label} (${size})` });
  const holders = new Set([0, Math.floor(size / 2), size - 1]);
  const start = Date.now() - size * 60_000;
  const submissions = Array.from({ length: size }, (_, n) =>
    makeSubmission(form, {
      createdAt: new Date(start + n * 60_000).toISOString(),
      referenceId: `${label.toUpperCase()}-${100_000 + n}`,
      data: {
        name: `Lead ${n} Surname${n}`,
        email: holders.has(n) ? TARGET_EMAIL : `lead${n}@example.com`,
        phone: `+44 20 7946 ${String(n).padStart(4, "0")}`,
        company: `Company ${n}`,
        message: "I would like a quote for a five-page website, please call me back.",
      },
    }),
  );
  await putSubmissions(submissions);
  await writeSearchEntries(
    submissions.flatMap((s) =>
      searchKeysOf(s)
        .filter((key) => key.includes("@") || key === s.referenceId.toLowerCase())
        .map((key) => ({
          entry: { formId: form.id, token: searchToken(key), createdAt: s.createdAt, submissionId: s.id },
          put: true,
        })),
    ),
  );
  return { form, reference: submissions[Math.floor(size / 3)]?.referenceId as string };
}

const listEvent = (formId: string, token: string, q: string) =>
  httpEvent({
    routeKey: "GET /api/v1/forms/{formId}/submissions",
    path: `/api/v1/forms/${formId}/submissions`,
    pathParameters: { formId },
    query: { q },
    headers: { authorization: `Bearer ${token}`, "user-agent": "inlet-bench" },
  });

export async function prepareSearchFixture(): Promise<SearchFixture> {
  const owner = await signupOwner("search-perf");
  const siteId = await createSite(owner, "search perf site");
  const small = await seedForm(owner, siteId, SEARCH_SIZES.small, "small");
  const large = await seedForm(owner, siteId, SEARCH_SIZES.large, "large");
  return {
    owner,
    forms: { small: { form: small.form, reference: small.reference }, large: { form: large.form, reference: large.reference } },
  };
}

export interface SearchResult {
  id: `search-${"email" | "reference"}-${keyof typeof SEARCH_SIZES}`;
  found: number;
  summary: RecordingSummary;
}

export const loadListHandler = async () => (await import("../../functions/submissions/list-submissions")).handler as HttpHandler;

/** Searches each form by the shared email and by a reference, recording each request's DynamoDB calls. */
export async function runSearchScenarios(recorder: Recorder, fixture: SearchFixture, handler: HttpHandler) {
  const results: SearchResult[] = [];
  for (const size of ["small", "large"] as const) {
    const { form, reference } = fixture.forms[size];
    for (const [what, q] of [
      ["email", ` ${TARGET_EMAIL.toUpperCase()} `],
      ["reference", reference.toLowerCase()],
    ] as const) {
      const { result, summary } = await recorder.run<HttpResult>(() =>
        invoke(handler, listEvent(form.id, fixture.owner.token, q)),
      );
      if (result.statusCode !== 200) throw new Error(`search ${what} ${size}: ${result.statusCode} ${result.body}`);
      const found = (result.json?.data?.submissions ?? []).length as number;
      results.push({ id: `search-${what}-${size}`, found, summary });
    }
  }
  return results;
}
