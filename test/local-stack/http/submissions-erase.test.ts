import type { Principal } from "../../../lib/auth/principal";
import { eraseByEmail } from "../../../lib/submissions";
import { createSite, signupOwner } from "../../support/api";
import { followCursors } from "../../support/budget-clock";
import { insertForm } from "../../support/fixtures";
import { makeSubmission, putSubmissions, storedItem } from "../../support/submissions";

/**
 * Erasure's resumption, through lib/ with a clock that is always past the time budget, so each
 * call handles one form and answers a cursor (the HTTP route is covered in submissions.test.ts).
 */
test("erasure that runs out of time answers a cursor, and following it erases the rest exactly once", async () => {
  const owner = await signupOwner("erase-resume");
  const siteId = await createSite(owner);
  const forms = [await insertForm(owner, siteId), await insertForm(owner, siteId), await insertForm(owner, siteId)];
  const matching = forms.flatMap((form) => [0, 1].map(() => makeSubmission(form, { data: { email: "gone@example.com" } })));
  const other = makeSubmission(forms[1] as (typeof forms)[number], { data: { email: "stays@example.com" } });
  await putSubmissions([...matching, other]);
  const principal = { kind: "session", orgId: owner.orgId } as Principal;

  const answers = await followCursors(
    (cursor, clock) => eraseByEmail(principal, "127.0.0.1", siteId, "GONE@example.com", cursor, clock),
    (answer) => answer.cursor,
  );

  expect(answers.map((a) => [a.deleted, a.complete])).toEqual([
    [2, false],
    [2, false],
    [2, true],
  ]);
  for (const s of matching) expect(await storedItem(s.id)).toBeUndefined();
  expect(await storedItem(other.id)).toBeDefined();
});
