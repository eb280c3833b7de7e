import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";

export type SentEmail = Schema<"SentEmail">;
export type Fate = SentEmail["recipients"][number]["status"];
export type SuppressedRecipient = Schema<"SuppressedRecipient">;

/** Suppressed addresses per page: a form has a few, rarely more. */
export const SUPPRESSED_PAGE_SIZE = 50;

/**
 * A submission's emails and its confirmation's state; polled while the confirmation is being
 * decided (the pipeline runs a moment after the submission arrives). A fate moves only with SES's
 * events, which come minutes to hours later: the page shows them when it is opened again.
 */
const fetchSubmissionEmails = async (submissionId: string) =>
  (await unwrap(api.GET("/api/v1/submissions/{submissionId}/emails", { params: { path: { submissionId } } }))).data;

/** Where a submission's confirmation stands: sent, off, being decided, or not sent and why. */
export type ConfirmationState = Awaited<ReturnType<typeof fetchSubmissionEmails>>["confirmation"];

export const submissionEmailsQuery = (submissionId: string) =>
  queryOptions({
    queryKey: queryKeys.emails.ofSubmission(submissionId),
    queryFn: () => fetchSubmissionEmails(submissionId),
    refetchInterval: (query) => (query.state.data?.confirmation.status === "pending" ? 3_000 : false),
  });

export const suppressedQuery = (formId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.emails.suppressed(formId),
    queryFn: async ({ pageParam }) =>
      (
        await unwrap(
          api.GET("/api/v1/forms/{formId}/suppressed-recipients", {
            params: { path: { formId }, query: { limit: SUPPRESSED_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
          }),
        )
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

export const liftSuppression = (formId: string, recipientId: string) =>
  unwrap(api.DELETE("/api/v1/forms/{formId}/suppressed-recipients/{recipientId}", { params: { path: { formId, recipientId } } }));
