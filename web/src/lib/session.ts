import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/keys";

/** Who is signed in: the session cookie's user, organization, role and permissions. */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async () => (await unwrap(api.GET("/api/v1/auth/me"))).data,
  staleTime: 60_000,
  retry: false,
});

/** Ends the session on the server; the answer clears the cookie. */
export const signOut = () => unwrap(api.POST("/api/v1/auth/logout"));
