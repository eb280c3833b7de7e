import { api, unwrap } from "../../api/client";

export const resendVerification = () => unwrap(api.POST("/api/v1/auth/verify-email/resend")).then((r) => r.data);

export const renameOrganization = (name: string) =>
  unwrap(api.PUT("/api/v1/organization", { body: { name } })).then((r) => r.data.organization);
