import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";

/**
 * The app's one QueryClient. An answer saying the session is gone (expired, signed out
 * elsewhere) calls `onSignedOut`, wherever it came from; a refused request (4xx) is not retried,
 * a failure of the service or the network twice.
 */
export function createQueryClient(onSignedOut: () => void): QueryClient {
  const onError = (error: Error) => {
    if (error instanceof ApiError && error.signedOut) onSignedOut();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
    },
  });
}
