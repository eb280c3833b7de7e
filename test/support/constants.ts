/** The platform admin of the test stack (PLATFORM_ADMIN_EMAILS). */
export const TEST_ADMIN_EMAIL = "platform-admin@inlet.test";
export const TEST_PASSWORD = "correct horse battery";
