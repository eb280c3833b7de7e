import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, notFound } from "./errors";
import { nextTimestamp } from "./forms";
import { newId, nowIso } from "./ids";
import { TAG_COLOURS } from "./store/shapes";
import { deleteTag, getTag, insertTag, listTags, type Tag, updateTag } from "./store/tags";
import * as z from "./validation";

/**
 * The organization's tags (docs/triage.md, "Tags"): at most 50, names unique whatever their case,
 * each with one of TAG_COLOURS. Deleting a tag leaves its id on submissions (no write grows with
 * the organization's submissions); the dashboard names tags from this list and leaves unknown
 * ids out.
 */

export const MAX_TAGS = 50;

export const tagName = /* @__PURE__ */ z.shared(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(32)));
export const tagColour = /* @__PURE__ */ z.shared(() => z.enum(TAG_COLOURS));

const tagView = (t: Tag) => ({ id: t.id, name: t.name, colour: t.colour, createdAt: t.createdAt, updatedAt: t.updatedAt });

const nameTaken = () => new AppError("TAG_NAME_TAKEN", "Another tag has that name");

export async function readTags(principal: Principal) {
  const tags = await listTags(principal.orgId);
  return { tags: tags.sort((a, b) => a.name.localeCompare(b.name)).map(tagView) };
}

export async function createTag(principal: Principal, sourceIp: string, input: { name: string; colour: Tag["colour"] }) {
  const now = nowIso();
  const tag: Tag = {
    id: newId("tag"),
    orgId: principal.orgId,
    name: input.name,
    colour: input.colour,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await insertTag(
    tag,
    MAX_TAGS,
    audited(principal, sourceIp, "tag.created", { type: "tag", id: tag.id, name: tag.name }),
  );
  if (outcome === "LIMIT_REACHED") throw new AppError("TAG_LIMIT_REACHED", `An organization holds at most ${MAX_TAGS} tags`);
  if (outcome === "NAME_TAKEN") throw nameTaken();
  return { tag: tagView(tag) };
}

async function findTag(principal: Principal, tagId: string) {
  const tag = await getTag(principal.orgId, tagId);
  if (!tag) throw notFound("Tag");
  return tag;
}

/** Renames or recolours; `updatedAt`: 409 CONFLICT when the tag changed since. */
export async function editTag(
  principal: Principal,
  sourceIp: string,
  tagId: string,
  input: { name?: string; colour?: Tag["colour"]; updatedAt?: string },
) {
  const current = await findTag(principal, tagId);
  if (input.updatedAt !== undefined && Date.parse(input.updatedAt) !== Date.parse(current.updatedAt)) {
    throw new AppError("CONFLICT", "The tag changed since it was read; reload it and apply your changes again");
  }
  const next: Tag = {
    ...current,
    name: input.name ?? current.name,
    colour: input.colour ?? current.colour,
    updatedAt: nextTimestamp(current.updatedAt),
  };
  const details = {
    ...(next.name !== current.name ? { nameFrom: current.name, nameTo: next.name } : {}),
    ...(next.colour !== current.colour ? { colourFrom: current.colour, colourTo: next.colour } : {}),
  };
  if (Object.keys(details).length === 0) return { tag: tagView(current) };
  const outcome = await updateTag(
    current,
    next,
    audited(principal, sourceIp, "tag.updated", { type: "tag", id: tagId, name: next.name }, details),
  );
  if (outcome === "NOT_FOUND") throw notFound("Tag");
  if (outcome === "NAME_TAKEN") throw nameTaken();
  if (outcome === "CONFLICT") throw new AppError("CONFLICT", "The tag changed meanwhile; retry");
  return { tag: tagView(next) };
}

export async function removeTag(principal: Principal, sourceIp: string, tagId: string) {
  const tag = await findTag(principal, tagId);
  const outcome = await deleteTag(tag, audited(principal, sourceIp, "tag.deleted", { type: "tag", id: tag.id, name: tag.name }));
  if (outcome === "NOT_FOUND") throw notFound("Tag");
  return { message: "Tag deleted" };
}
