import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { signOut } from "../lib/session";
import { Button } from "./ui/button";

/**
 * Signs out and goes to sign-in, forgetting every cached answer (the next person at this browser
 * sees nothing of them). A failed logout request still signs out here: the cookie's session ends
 * on its own, and staying signed in on screen would be worse.
 */
export function SignOutButton() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await signOut().catch(() => undefined);
        queryClient.clear();
        await navigate({ to: "/sign-in", search: {} });
      }}
    >
      Sign out
    </Button>
  );
}
