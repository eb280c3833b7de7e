import { DeliveryLogPage as DeliveryLog } from "../features/outbound/delivery-log-page";
import { useFormName } from "./form-name";

/** An endpoint's delivery log (outbound), with the form's name (forms) on the way back. */
export function DeliveryLogPage() {
  const formName = useFormName();
  return <DeliveryLog formName={formName} />;
}
