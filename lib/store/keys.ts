/**
 * The only module that builds key strings. Every item has generic `pk`/`sk` (and, where an
 * index serves it, `gsi1pk`/`gsi1sk`) attributes; docs/data-model.md lists the access patterns.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  organization: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: "META" }),
  /** All organizations, newest last, for the platform admin (GSI1). */
  organizationIndex: (createdAt: string, orgId: string) => ({
    gsi1pk: "ORGS",
    gsi1sk: `${createdAt}#${orgId}`,
  }),
  organizationIndexPartition: () => "ORGS",

  member: (orgId: string, userId: string): Key => ({ pk: `ORG#${orgId}`, sk: `USER#${userId}` }),
  memberPrefix: () => "USER#",

  /** One item per email address: makes emails unique and finds the account at login. */
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" }),

  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: "SESSION" }),
  invite: (tokenHash: string): Key => ({ pk: `INVITE#${tokenHash}`, sk: "INVITE" }),

  site: (orgId: string, siteId: string): Key => ({ pk: `ORG#${orgId}`, sk: `SITE#${siteId}` }),
  sitePrefix: () => "SITE#",

  /** The claim that makes the first account of a deployment its platform admin. */
  firstPlatformAdmin: (): Key => ({ pk: "PLATFORM", sk: "FIRST_ADMIN" }),

  /** A fixed-window counter, e.g. failed logins per email per window. */
  counter: (scope: string, subject: string, windowStart: number): Key => ({
    pk: `COUNTER#${scope}#${subject}`,
    sk: `W#${windowStart}`,
  }),
};

/** Where an item's id sits after its key's type prefix, e.g. `SITE#site_x` → `site_x`. */
export const idFromSortKey = (sk: string) => sk.slice(sk.indexOf("#") + 1);
