import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { CHOICE_WORDS, CHOICES, effectiveWords } from "./notification-words";
import type { NotificationChoice, NotificationSettings } from "./queries";

const select =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** Each form of the organization, with the person's own choice for it and what applies. */
export function NotificationForms({
  forms,
  truncated,
  organization,
  choices,
  onChange,
}: {
  forms: NotificationSettings["forms"];
  truncated: boolean;
  organization: NotificationChoice | null;
  choices: Record<string, NotificationChoice>;
  onChange: (formId: string, choice: NotificationChoice | null) => void;
}) {
  if (forms.length === 0) return <Muted>No forms yet: your choice for every form applies to the ones to come.</Muted>;
  return (
    <>
      <Table
        caption="Your choice for each form"
        columns={[{ label: "Form" }, { label: "Your choice" }, { label: "What you get" }]}
      >
        {forms.map((form) => {
          const own = choices[form.formId] ?? null;
          return (
            <Row key={form.formId}>
              <RowHeader>
                {form.name}
                <Muted as="div">{form.siteName}</Muted>
              </RowHeader>
              <Cell>
                <select
                  aria-label={`Your choice for ${form.name} (${form.siteName})`}
                  className={select}
                  value={own ?? ""}
                  onChange={(e) => onChange(form.formId, (e.target.value || null) as NotificationChoice | null)}
                >
                  <option value="">Same as every form</option>
                  {CHOICES.map((choice) => (
                    <option key={choice} value={choice}>
                      {CHOICE_WORDS[choice]}
                    </option>
                  ))}
                </select>
              </Cell>
              <Cell>{effectiveWords(own ?? organization, form.listed)}</Cell>
            </Row>
          );
        })}
      </Table>
      {truncated && (
        <Muted className="mt-2">
          Your organization has more forms than this page lists: they follow the choice for every form.
        </Muted>
      )}
    </>
  );
}
