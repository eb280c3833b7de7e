/** The platform admin of the test stack (PLATFORM_ADMIN_EMAILS). */
export const TEST_ADMIN_EMAIL = "platform-admin@inlet.test";
export const TEST_PASSWORD = "correct horse battery";
/** Also listed in PLATFORM_ADMIN_EMAILS: addresses the verification tests try to claim (email-verification.test.ts, email-change.test.ts, password-reset.test.ts). */
export const CLAIMABLE_ADMIN_EMAILS = [
  "claim-by-invite@inlet.test",
  "claim-by-signup@inlet.test",
  "claim-by-squatting@inlet.test",
  "claim-by-change@inlet.test",
  "claim-by-reset@inlet.test",
] as const;
