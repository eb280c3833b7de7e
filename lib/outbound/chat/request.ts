import { loadConfig } from "../../config";
import type { Form } from "../../store/forms";
import type { Delivery } from "../../store/outbound-deliveries";
import type { ChatKind, OutboundEndpoint } from "../../store/outbound-endpoints";
import type { StoredSubmission } from "../../store/submissions";
import { BODIES } from "./bodies";
import { changeMessage, DEFAULT_CHAT_OPTIONS, leadMessage, testMessage } from "./message";

/** Chat platforms verify no signature: plain JSON, and a user agent that says who posts. */
export const CHAT_USER_AGENT = "Inlet-Destinations/1.0";

/**
 * One attempt's request to a chat destination: the message built afresh from the submission
 * (or the test message), in its platform's format. `form` gives the name and the field labels;
 * a form deleted meanwhile leaves its fields unlabelled rather than failing the message.
 * `changeSummary` (a `submission.updated` delivery): the change message instead of the lead's.
 */
export function chatRequest(
  kind: ChatKind,
  endpoint: OutboundEndpoint,
  delivery: Pick<Delivery, "id" | "lead">,
  submission: StoredSubmission | null,
  form: Form | undefined,
  changeSummary?: string,
): { headers: Record<string, string>; body: string } {
  const baseUrl = loadConfig().BASE_URL;
  const about = submission && {
    form: form ?? { name: "", fields: {} },
    lead: delivery.lead ?? submission.lead ?? null,
    options: endpoint.chat ?? DEFAULT_CHAT_OPTIONS,
  };
  const message =
    submission && about
      ? changeSummary !== undefined
        ? changeMessage(submission, about.form, about.lead, about.options, baseUrl, changeSummary)
        : leadMessage(submission, about.form, about.lead, about.options, baseUrl)
      : testMessage(endpoint, form, baseUrl);
  return {
    headers: { "content-type": "application/json", "user-agent": CHAT_USER_AGENT },
    body: JSON.stringify(BODIES[kind](message, delivery.id)),
  };
}
