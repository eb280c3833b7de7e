import { api, unwrap } from "../../api/client";
import type { Schema } from "../../api/types";

export type Member = Schema<"Member">;
export type InvitedRole = "admin" | "member";

/** The roles an invite or a role change gives (the owner's never changes). */
export const ROLE_OPTIONS: readonly { value: InvitedRole; label: string }[] = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

export { membersQuery } from "../../lib/triage";

export const invite = (body: { email: string; role: InvitedRole }) =>
  unwrap(api.POST("/api/v1/team/invites", { body })).then((r) => r.data);

export const changeRole = (userId: string, role: InvitedRole) =>
  unwrap(api.PUT("/api/v1/team/members/{userId}", { params: { path: { userId } }, body: { role } })).then((r) => r.data.member);

export const removeMember = (userId: string) =>
  unwrap(api.DELETE("/api/v1/team/members/{userId}", { params: { path: { userId } } }));
