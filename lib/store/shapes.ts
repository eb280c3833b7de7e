/**
 * The shapes the store persists that domain modules compute: declared here, on the store's side,
 * so the store imports no domain module (docs/architecture.md). The domain modules re-export
 * them where they are the vocabulary (lib/auth/permissions.ts, lib/leads.ts, lib/spam/signals.ts,
 * lib/intake/limits.ts).
 */

/** Spec part 5.2, plus settings.billing, which the spec names among the restricted ones: held by members' roles and by API keys. */
export const PERMISSIONS = [
  "forms.view",
  "forms.create",
  "forms.edit",
  "forms.delete",
  "forms.publish",
  "submissions.view",
  "submissions.export",
  "submissions.delete",
  "submissions.import",
  "sites.view",
  "sites.create",
  "sites.edit",
  "sites.delete",
  "team.view",
  "team.invite",
  "team.manage",
  "settings.org",
  "settings.email",
  "settings.billing",
  "audit_log.read",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];
/** The roles an invite or a role change gives: never `owner`, which only signup makes. */
export const GRANTABLE_ROLES = ["admin", "member"] as const satisfies readonly Role[];

/**
 * Where a lead stands in its team's work (docs/triage.md): open (new, contacted, qualified) or
 * closed (won, lost). A submission without a `status` attribute is `new`.
 */
export const SUBMISSION_STATUSES = ["new", "contacted", "qualified", "won", "lost"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The colours a tag may have; the dashboard maps each to a light and a dark pair with readable contrast. */
export const TAG_COLOURS = ["gray", "red", "orange", "amber", "green", "teal", "blue", "indigo", "purple", "pink"] as const;
export type TagColour = (typeof TAG_COLOURS)[number];

/** One submitted value: a field's text, or the values of a repeated field. */
export type RawValue = string | string[];

/** A lead's grade (lib/leads.ts; docs/leads.md). */
export const LEAD_GRADES = ["hot", "warm", "cold"] as const;
export type LeadGrade = (typeof LEAD_GRADES)[number];

/** A background job's state (a retention change's re-dating, an import). */
export const JOB_STATUSES = ["running", "finished"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Why SES suppresses an address: a permanent bounce or a complaint. */
export const SUPPRESSION_REASONS = ["bounce", "complaint"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** Who made a change: a member of the organization or an API key. */
export const ACTOR_TYPES = ["member", "api_key"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
/** Who made a change, with its name then: a submission change's, a note's, as the timeline and change events show it. */
export interface Actor {
  type: ActorType;
  id: string;
  name: string;
}

/** A submission's lead qualification (lib/leads.ts computes it; docs/leads.md). */
export interface Lead {
  score: number;
  grade: LeadGrade;
  reasons: string[];
  /** A test lead (advertising platforms' test button): graded apart, never hot or warm. */
  test?: true;
}

/** One spam signal that fired, with its points and what it saw (lib/spam/signals.ts). */
export interface SpamSignalHit {
  name: string;
  score: number;
  detail: string;
}

/** A submission's spam verdict: the sum of the signals that fired, capped at 100; above 70 is spam. */
export interface SpamVerdict {
  score: number;
  isSpam: boolean;
  signals: SpamSignalHit[];
}
