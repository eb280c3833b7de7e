import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, SelectField, submitWith } from "../../components/ui/field";
import { card, Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { NotificationForms } from "./notification-forms";
import { CHOICE_WORDS, CHOICES, nextDigestWords, timeZones, WEEKDAYS } from "./notification-words";
import { type NotificationChoice, type NotificationSettings, notificationsQuery, saveNotifications } from "./queries";

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }));

/** The choices being edited: what the page shows until saved. */
function draftOf(settings: NotificationSettings) {
  return {
    timeZone: timeZones(settings.timeZone).current,
    digestHour: settings.digestHour,
    digestWeekday: settings.digestWeekday,
    organization: settings.organization,
    forms: Object.fromEntries(settings.forms.flatMap((f) => (f.choice ? [[f.formId, f.choice]] : []))) as Record<
      string,
      NotificationChoice
    >,
  };
}

function NotificationsForm({ settings }: { settings: NotificationSettings }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const zones = timeZones(settings.timeZone);
  const save = useMutation({
    mutationFn: () =>
      saveNotifications({
        ...draft,
        forms: Object.entries(draft.forms).map(([formId, choice]) => ({ formId, choice })),
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.notifications, saved);
      setDraft(draftOf(saved));
      toast("Your notifications are saved");
    },
  });
  const error = apiError(save.error);
  const setForm = (formId: string, choice: NotificationChoice | null) => {
    const forms = { ...draft.forms };
    if (choice) forms[formId] = choice;
    else delete forms[formId];
    setDraft({ ...draft, forms });
  };
  return (
    <form onSubmit={submitWith(() => save.mutate())} className="flex flex-col gap-4" noValidate>
      {!settings.emailVerified && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          Your address is not verified yet: nothing is emailed to you until it is.
        </p>
      )}
      <FormError message={error?.formMessage} />
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          label="Time zone"
          value={draft.timeZone}
          onChange={(e) => setDraft({ ...draft, timeZone: e.target.value })}
          options={zones.all.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
        />
        <SelectField
          label="Digests arrive at"
          value={String(draft.digestHour)}
          onChange={(e) => setDraft({ ...draft, digestHour: Number(e.target.value) })}
          options={HOURS}
        />
        <SelectField
          label="Weekly digests on"
          value={String(draft.digestWeekday)}
          onChange={(e) => setDraft({ ...draft, digestWeekday: Number(e.target.value) })}
          options={WEEKDAYS.map((day, i) => ({ value: String(i + 1), label: day }))}
        />
      </div>
      {error?.field("timeZone") && <p className="text-sm text-red-700 dark:text-red-400">{error.field("timeZone")}</p>}
      <SelectField
        label="For every form"
        value={draft.organization ?? ""}
        onChange={(e) => setDraft({ ...draft, organization: (e.target.value || null) as NotificationChoice | null })}
        options={[
          { value: "", label: "As each form's notification list says" },
          ...CHOICES.map((choice) => ({ value: choice, label: CHOICE_WORDS[choice] })),
        ]}
      />
      <NotificationForms
        forms={settings.forms}
        truncated={settings.formsTruncated}
        organization={draft.organization}
        choices={draft.forms}
        onChange={setForm}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save notifications"}
        </Button>
        {nextDigestWords(settings, settings.timeZone ?? draft.timeZone).map((line) => (
          <Muted as="span" key={line}>
            {line}
          </Muted>
        ))}
      </div>
    </form>
  );
}

/**
 * Settings → Account → Email notifications: per form or for the whole organization, an email per
 * submission, a daily or weekly digest, or nothing; the time zone and hour digests go at. Digests
 * link here (`#notifications`), so the section comes into view when the page opens with it.
 */
export function Notifications() {
  const settings = useQuery(notificationsQuery);
  useEffect(() => {
    if (settings.data && window.location.hash === "#notifications") document.getElementById("notifications")?.scrollIntoView();
  }, [settings.data]);
  return (
    <section id="notifications" aria-labelledby="notifications-heading" className={`${card} mb-6`}>
      <h2 id="notifications-heading" className="mb-1 text-lg font-semibold">
        Email notifications
      </h2>
      <Muted className="mb-4">
        For each form: an email per submission, a daily or weekly digest (the counts, the newest and hottest leads, what fails),
        or nothing. Addresses on a form's notification list that are not members keep getting an email per submission.
      </Muted>
      {settings.data ? (
        <NotificationsForm settings={settings.data} />
      ) : settings.error ? (
        <FormError message={apiError(settings.error)?.message ?? "Your notifications could not be loaded."} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
