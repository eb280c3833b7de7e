import { Tabs } from "radix-ui";
import { CopyField } from "../../components/ui/copy";
import { underlineTab } from "../../components/ui/tabs";
import { type CaptchaKind, captchaSnippets } from "./captcha-snippets";

/** The snippet to paste for the chosen kind, one tab per vendor when there are several. */
export function Snippet({ kind, siteKey }: { kind: CaptchaKind; siteKey: string }) {
  const snippets = captchaSnippets(kind, siteKey);
  const [first] = snippets;
  if (!first) return null;
  const part = (s: (typeof snippets)[number]) => (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        The widget posts its token as <code>{s.tokenField}</code>, which intake verifies and never stores. Replace{" "}
        <code>YOUR_SOURCE_URL</code> with the action of your source's HTML form.
      </p>
      <CopyField label={`${s.title} snippet`} value={s.code} multiline />
    </div>
  );
  if (snippets.length === 1) return part(first);
  return (
    <Tabs.Root defaultValue={first.id}>
      <Tabs.List aria-label="Captcha vendor" className="mb-3 flex gap-2 border-b border-slate-200 dark:border-slate-700">
        {snippets.map((s) => (
          <Tabs.Trigger key={s.id} value={s.id} className={underlineTab}>
            {s.title}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {snippets.map((s) => (
        <Tabs.Content key={s.id} value={s.id}>
          {part(s)}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
