import { WebhooksPage as Webhooks } from "../features/outbound/webhooks-page";
import { useFormName } from "./form-name";

/** A form's outbound webhooks (outbound), titled with the form's name (forms). */
export function WebhooksPage() {
  const formName = useFormName();
  return <Webhooks formName={formName} />;
}
