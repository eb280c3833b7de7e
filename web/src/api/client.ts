import createClient from "openapi-fetch";
import { messageFor } from "./errors";
import type { paths } from "./schema";

/** One problem with one field of a request, as the API's `VALIDATION_ERROR` details say. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** An API error answer, with the sentence to show and the field problems to place beside their inputs. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(messageFor(code, message));
  }

  /** The problem of one field (`email`, `name`…), if the API named one. */
  field(path: string): string | undefined {
    return this.details.find((d) => d.path === path)?.message;
  }

  /** The sentence for the form as a whole: none when each problem is shown beside its field. */
  get formMessage(): string | undefined {
    return this.details.length > 0 ? undefined : this.message;
  }

  /** Whether the session is gone and the person must sign in again. */
  get signedOut(): boolean {
    return this.status === 401;
  }
}

/**
 * The typed client, generated from the API's OpenAPI document (`npm run openapi` writes
 * ./schema.d.ts). Requests go to the dashboard's own origin (`/api/...`) with the session
 * cookie, which page scripts never see.
 */
export const api = createClient<paths>({ baseUrl: "/", credentials: "same-origin" });

/** A query's or mutation's failure as the ApiError `unwrap` threw, if that is what it is. */
export const apiError = (error: Error | null): ApiError | undefined => (error instanceof ApiError ? error : undefined);

/** Sent by sign-in and sign-up: the session comes back as an HttpOnly cookie, not in the body. */
export const COOKIE_SESSION = { "X-Inlet-Session": "cookie" } as const;

interface Envelope {
  error?: { code?: string; message?: string; details?: FieldProblem[] };
}

/** The `data` of a success, or an ApiError thrown with the envelope's code and details. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<NonNullable<T>> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", "The service could not be reached.");
  }
  if (result.response.ok && result.data !== undefined) return result.data as NonNullable<T>;
  const envelope = (result.error ?? {}) as Envelope;
  throw new ApiError(
    result.response.status,
    envelope.error?.code ?? "INTERNAL_ERROR",
    envelope.error?.message ?? `The service answered ${result.response.status}.`,
    envelope.error?.details ?? [],
  );
}
