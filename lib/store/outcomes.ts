/**
 * The store's outcome vocabulary. A write that one of its conditions refused is an expected
 * outcome: the store function answers it as a value (never throws it), named with these words,
 * and each word means the same in every module. A store function declares its answers as
 * `Outcome<"OK" | "NOT_FOUND">`, so tsc refuses a word that is not listed here.
 *
 * Absent: a read answers `undefined`, and so does a write whose answer may be the item itself
 * (an update answering the item as written); a write answering a word says "NOT_FOUND".
 * A claim, a write only one caller can win (the first platform admin, a delivery's creation or
 * attempt, an action's claim, a release's withdrawal), answers `true` when this caller won it and
 * `false` when another did or the state it claims from has moved on.
 */
interface Words {
  /** Written as asked. */
  OK: never;
  /** The item written does not exist: never created, deleted, another organization's, or being purged. */
  NOT_FOUND: never;
  /** The item the new one is created in or counted on (a site, an organization) does not exist. */
  PARENT_NOT_FOUND: never;
  /** The parent's count of such items is at its limit. */
  LIMIT_REACHED: never;
  /**
   * Something the caller read and decided on changed before the write (the item's `updatedAt`,
   * an item listed with it, the webhook's link, the creator's role): nothing was written; read
   * again and decide again, or answer 409.
   */
  CONFLICT: never;
  /** Only an archived item (a webhook, a form) can be deleted permanently. */
  NOT_ARCHIVED: never;
  /** The member is the organization's owner, whose role is not changed and who is not removed. */
  OWNER: never;
  /** Another account holds the address: it verified it, or it is not the holder the caller read. */
  EMAIL_TAKEN: never;
  /** The invite was used or has expired. */
  INVITE_INVALID: never;
  /**
   * The emailed link was used or has expired, or what it was issued for changed since (the
   * account's address, the address's holder).
   */
  LINK_INVALID: never;
  /**
   * The member's session epoch moved since the caller read it (a password reset or change
   * committed meanwhile): the password it checked no longer opens the account.
   */
  STALE: never;
  /** The session the caller acts from was ended meanwhile (its epoch moved on, or it was deleted). */
  ENDED: never;
  /** An API key's revocation: revoked by this call, or revoked already (nothing written). */
  REVOKED: never;
  ALREADY_REVOKED: never;
  /** An API key's permanent deletion: deleted by this call, or refused because the key is not revoked. */
  DELETED: never;
  NOT_REVOKED: never;
  /** The submission is spam and was never taken up by the intake pipeline. */
  SPAM: never;
  /** The form does not notify that address (any more), or is gone. */
  NOT_NOTIFIED: never;
  /** Another item of the organization already holds that name (a tag's name claim). */
  NAME_TAKEN: never;
  /** The caller may change only what it wrote itself (a note), and did not write this one. */
  NOT_AUTHOR: never;
  /** An item the write names (a tag, a member) does not exist in the organization. */
  UNKNOWN_REFERENCE: never;
}

/** The words a store function answers, each one of the vocabulary above. */
export type Outcome<T extends keyof Words = keyof Words> = T;
