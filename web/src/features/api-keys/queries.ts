import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";

export type ApiKey = Schema<"ApiKey">;
export type KeyPermission = ApiKey["permissions"][number];

/** An organization holds at most this many keys, revoked ones included until deleted (docs/api.md). */
export const KEY_LIMIT = 25;

export const apiKeysQuery = queryOptions({
  queryKey: queryKeys.apiKeys,
  queryFn: async () => (await unwrap(api.GET("/api/v1/api-keys"))).data,
});

export const createKey = (body: { name: string; permissions: KeyPermission[]; expiresInDays?: number }) =>
  unwrap(api.POST("/api/v1/api-keys", { body })).then((r) => r.data.key);

export const revokeKey = (id: string) => unwrap(api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id } } }));

export const deleteKey = (id: string) =>
  unwrap(api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id }, query: { permanent: "true" } } }));

/** The permissions a key may hold, grouped by area as the create form shows them. */
export const PERMISSION_GROUPS: readonly { area: string; permissions: readonly { name: KeyPermission; label: string }[] }[] = [
  {
    area: "Forms",
    permissions: [
      { name: "forms.view", label: "View forms" },
      { name: "forms.create", label: "Create forms" },
      { name: "forms.edit", label: "Edit forms" },
      { name: "forms.publish", label: "Publish forms" },
      { name: "forms.delete", label: "Delete forms" },
    ],
  },
  {
    area: "Submissions",
    permissions: [
      { name: "submissions.view", label: "View submissions" },
      { name: "submissions.export", label: "Export submissions" },
      { name: "submissions.delete", label: "Delete submissions" },
    ],
  },
  {
    area: "Sites",
    permissions: [
      { name: "sites.view", label: "View sites" },
      { name: "sites.create", label: "Create sites" },
      { name: "sites.edit", label: "Edit sites" },
      { name: "sites.delete", label: "Delete sites" },
    ],
  },
  { area: "Team", permissions: [{ name: "team.view", label: "View the team" }] },
];

export const OFFERED_PERMISSIONS: readonly KeyPermission[] = PERMISSION_GROUPS.flatMap((g) => g.permissions.map((p) => p.name));

/** The names of the keys `email` made that still work: what stops working when that member leaves. */
export const activeKeyNames = (keys: readonly ApiKey[], email: string): string[] =>
  keys.filter((k) => k.createdBy.email === email && !k.isRevoked && !k.isOrphaned).map((k) => k.name);
