import { nowIso } from "../../../lib/ids";
import { deleteFormPermanently } from "../../../lib/store/form-deletion";
import { getForm, updateForm } from "../../../lib/store/forms";
import { createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";

/**
 * A form's conditional writes tell what they found from the item a refused condition returns
 * (ALL_OLD), which DynamoDB hands back marshalled: read unmarshalled, a form changed or restored
 * meanwhile is a conflict or "not archived", not a form that is gone.
 */
describe("a form changed between its read and its write", () => {
  test("an update based on an older read is a CONFLICT, and changes nothing", async () => {
    const owner = await signupOwner("form-race");
    const form = await insertForm(owner, await createSite(owner));
    const first = await updateForm(form, { name: "First" }, nowIso());
    expect(first).toMatchObject({ name: "First" });
    expect(await updateForm(form, { name: "Second" }, nowIso())).toBe("CONFLICT");
    expect((await getForm(form.id))?.name).toBe("First");
  });

  test("an update of a form being purged finds it gone", async () => {
    const owner = await signupOwner("form-race");
    const form = await insertForm(owner, await createSite(owner), { deletedAt: nowIso() }, { uncounted: true });
    expect(await updateForm(form, { name: "Late" }, nowIso())).toBeUndefined();
  });

  test("a permanent deletion of a form restored meanwhile is NOT_ARCHIVED; of a form already purging, NOT_FOUND", async () => {
    const owner = await signupOwner("form-race");
    const siteId = await createSite(owner);
    const restored = await insertForm(owner, siteId);
    // Read while archived; the item says it was restored since.
    expect(await deleteFormPermanently({ ...restored, archivedAt: nowIso() }, [], nowIso())).toBe("NOT_ARCHIVED");
    const purging = await insertForm(owner, siteId, { archivedAt: nowIso(), deletedAt: nowIso() }, { uncounted: true });
    expect(await deleteFormPermanently({ ...purging, deletedAt: null }, [], nowIso())).toBe("NOT_FOUND");
    const archived = await insertForm(owner, siteId, { archivedAt: nowIso() });
    expect(await deleteFormPermanently(archived, [], nowIso())).toBe("OK");
    expect((await getForm(archived.id))?.deletedAt).toEqual(expect.any(String));
  });
});
