import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type Member = components["schemas"]["Member"];
export type InvitedRole = "admin" | "member";

export const teamKeys = { members: ["team", "members"] as const };

/** The organization's members, a page of 100 at a time (the API's cursor). */
export const membersQuery = infiniteQueryOptions({
  queryKey: teamKeys.members,
  queryFn: async ({ pageParam }) =>
    (await unwrap(api.GET("/api/v1/team", { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })))
      .data,
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.nextCursor ?? undefined,
});

export const invite = (body: { email: string; role: InvitedRole }) =>
  unwrap(api.POST("/api/v1/team/invites", { body })).then((r) => r.data);

export const changeRole = (userId: string, role: InvitedRole) =>
  unwrap(api.PUT("/api/v1/team/members/{userId}", { params: { path: { userId } }, body: { role } })).then((r) => r.data.member);

export const removeMember = (userId: string) =>
  unwrap(api.DELETE("/api/v1/team/members/{userId}", { params: { path: { userId } } }));
