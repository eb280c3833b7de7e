import { unwrap } from "../api/client";

/**
 * A call to a route of issue 28 (triage, tags, notes, read state) by its path, answering the
 * envelope's `data`, with the same errors as the typed client's `unwrap`.
 */
export async function call<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
  const request = fetch(path, {
    method,
    credentials: "same-origin",
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  }).then(async (response) => {
    const json: unknown = await response.json().catch(() => undefined);
    return response.ok ? { data: json as { data: T }, response } : { error: json, response };
  });
  return (await unwrap(request)).data;
}
