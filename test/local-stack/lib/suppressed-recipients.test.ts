import { jest } from "@jest/globals";
import type { ApiKeyPrincipal } from "../../../lib/auth/principal";
import { SesRequestError, ses } from "../../../lib/aws/ses";
import { liftSuppression } from "../../../lib/emails/suppressed-recipients";
import { AppError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { suppressedId } from "../../../lib/notifications/suppression";
import { getForm } from "../../../lib/store/forms";
import type { Account } from "../../support/api";
import { insertForm } from "../../support/fixtures";

/**
 * Lifting a suppressed address (lib/emails/suppressed-recipients.ts) when SES cannot take it off
 * its list: a fault SES cannot be made to produce locally (the emulator keeps no list), injected
 * on the client. Nothing is lifted on the form, and the caller is told to retry.
 */

const orgId = newId("organization");
const principal: ApiKeyPrincipal = {
  kind: "apiKey",
  keyId: "key_test",
  name: "Test key",
  orgId,
  plan: "agency",
  permissions: new Set(["forms.edit"]),
  responseHeaders: {},
};

test("SES throttling or failing: 503 SERVICE_UNAVAILABLE with Retry-After, the address still suppressed on the form", async () => {
  const address = "bounced@example.com";
  const form = await insertForm(
    { orgId } as Account,
    newId("site"),
    {
      settings: { notifyEmails: [address] },
      suppressedRecipients: { [address]: { reason: "bounce", at: new Date().toISOString() } },
    },
    { uncounted: true },
  );
  const unsuppress = jest.spyOn(ses(), "unsuppress");
  try {
    for (const [status, type] of [
      [429, "TooManyRequestsException"],
      [500, "InternalFailure"],
    ] as const) {
      unsuppress.mockRejectedValueOnce(new SesRequestError(type, status, "SES said no"));
      const error = await liftSuppression(principal, form.id, suppressedId(address)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, headers: { "retry-after": "5" } });
      expect((await getForm(form.id, { consistent: true }))?.suppressedRecipients).toHaveProperty([address]);
    }
    // Refused for a reason no retry fixes (the role may not): not a 503, and still nothing lifted.
    unsuppress.mockRejectedValueOnce(new SesRequestError("AccessDeniedException", 403, "not authorized"));
    await expect(liftSuppression(principal, form.id, suppressedId(address))).rejects.toThrow("not authorized");
    expect((await getForm(form.id, { consistent: true }))?.suppressedRecipients).toHaveProperty([address]);
    // SES answering again: lifted.
    expect(await liftSuppression(principal, form.id, suppressedId(address))).toEqual({ message: expect.any(String) });
    expect((await getForm(form.id, { consistent: true }))?.suppressedRecipients).toEqual({});
  } finally {
    unsuppress.mockRestore();
  }
});
