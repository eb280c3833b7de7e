import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ToastProvider } from "./components/ui/toast";
import { keptAnchor } from "./lib/format";
import { createQueryClient } from "./lib/query-client";
import { createAppRouter } from "./router";
import "./styles.css";

/** An answer saying the session is gone (expired, signed out elsewhere) leads back to sign-in, and back here after. */
function toSignIn() {
  const { pathname, search, hash } = window.location;
  if (pathname === "/sign-in") return;
  queryClient.clear();
  void router.navigate({ to: "/sign-in", search: { redirect: pathname + search + keptAnchor(hash) } });
}

const queryClient = createQueryClient(toSignIn);
const router = createAppRouter(queryClient);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
