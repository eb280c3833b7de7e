import { FolderView } from "../features/inbox/inbox-page";
import { useFormName } from "./form-name";

/** A form's spam folder (inbox), titled with the form's name (forms). */
export function SpamPage() {
  const formName = useFormName();
  return <FolderView folder="spam" formName={formName} />;
}
