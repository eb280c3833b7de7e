import { useQuery } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { CopyField } from "../../components/ui/copy";
import { Muted } from "../../components/ui/text";
import { MovingIn, type MovingInSource } from "./moving-in-panel";
import { type CreatedSource, kindOf, type SourceKind, sourceQuery } from "./queries";
import { SECRET_PLACEHOLDER, SNIPPET_FOR_KIND, snippetsFor } from "./snippets";

const tab =
  "rounded-md px-3 py-1.5 text-sm data-[state=active]:bg-indigo-700 data-[state=active]:text-white dark:data-[state=active]:bg-indigo-400 dark:data-[state=active]:text-slate-950";

/**
 * How to send to a source: its URL, its secret when it is known (right after creation or
 * rotation, once), and a setup per kind of sender.
 */
export function SourceSetup({
  url,
  secret,
  domain,
  kind = "generic",
  movingIn,
}: {
  url: string;
  secret?: string | undefined;
  domain?: string | null | undefined;
  /** The source's kind: its own setup is the tab shown first. */
  kind?: SourceKind;
  /** The source (its row's setup, or just created): "Coming from another service?" with its compatibility switch. */
  movingIn?: { siteId: string; source: MovingInSource } | undefined;
}) {
  const snippets = snippetsFor(url, secret, domain);
  return (
    <div className="flex flex-col gap-4">
      <CopyField label="Intake URL" value={url} />
      {secret ? (
        <div className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950">
          <CopyField label="Secret" value={secret} />
          <p className="text-sm">Copy the secret now: it is shown only this once. If you lose it, rotate it to get a new one.</p>
        </div>
      ) : (
        <Muted>
          The secret is shown only when the source is created or its secret rotated: the setups below say{" "}
          <code>{SECRET_PLACEHOLDER}</code> in its place.
        </Muted>
      )}
      <Tabs.Root defaultValue={SNIPPET_FOR_KIND[kind]}>
        <Tabs.List aria-label="Ready-to-paste setups" className="flex flex-wrap gap-1">
          {snippets.map((s) => (
            <Tabs.Trigger key={s.id} value={s.id} className={tab}>
              {s.title}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {snippets.map((s) => (
          <Tabs.Content key={s.id} value={s.id} className="mt-3 flex flex-col gap-3">
            {s.parts.map((p) => (
              <CopyField key={p.label} label={p.label} value={p.value} multiline={p.multiline ?? false} />
            ))}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      {movingIn && <MovingIn siteId={movingIn.siteId} source={movingIn.source} secret={secret} domain={domain} />}
    </div>
  );
}

/**
 * The setup of a source just created (the sources page's dialog, the onboarding's step 3): its
 * secret, shown this once, and "Coming from another service?" with the source as it now is (its
 * compatibility switch saves through the source's own query, which this reads).
 */
export function CreatedSourceSetup({
  siteId,
  created,
  domain,
}: {
  siteId: string;
  created: CreatedSource;
  domain?: string | null | undefined;
}) {
  const live = useQuery(sourceQuery(siteId, created.id));
  return (
    <SourceSetup
      url={created.webhookUrl}
      secret={created.secretKey}
      domain={domain}
      kind={kindOf(created)}
      movingIn={{ siteId, source: live.data ?? created }}
    />
  );
}
