/** Every route under /auth that needs a signed-in session, in the route table's order: throttled and counted with management. */
export const SIGNED_IN_AUTH_ROUTES = [
  "POST /api/v1/auth/logout",
  "GET /api/v1/auth/me",
  "POST /api/v1/auth/verify-email",
  "POST /api/v1/auth/verify-email/resend",
  "PUT /api/v1/auth/password",
  "POST /api/v1/auth/logout/others",
  "PUT /api/v1/auth/me",
  "GET /api/v1/auth/me/notifications",
  "PUT /api/v1/auth/me/notifications",
  "POST /api/v1/auth/change-email",
];
