import type { StoredSubmission } from "../../lib/store/submissions";

/** A stored submission of `data`, as the chat message builders take it (test/standalone/unit/chat-*.test.ts). */
export function chatSubmission(
  data: Record<string, string | string[]>,
  overrides: Partial<StoredSubmission> = {},
): StoredSubmission {
  return {
    id: "sub_6x6pKg6HlmtQA4jO3LqDjA",
    orgId: "org_1",
    siteId: "site_1",
    formId: "form_1",
    webhookId: "wh_1",
    referenceId: "ACME-1042",
    data,
    metadata: { source: "generic", userAgent: null, referer: null, ip: "203.0.113.9", droppedFiles: [], ignoredFields: [] },
    spam: { score: 0, isSpam: false, signals: [] },
    createdAt: "2026-11-22T00:09:59.512Z",
    isSpam: false,
    ...overrides,
  };
}
