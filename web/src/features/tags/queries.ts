import type { Tag } from "../../lib/triage";
import { call } from "../../lib/triage-api";

/** Settings → Tags: the organization's tags (docs/api.md, "Tags"); the list itself is `tagsQuery` (lib/triage.ts). */
export const TAG_LIMIT = 50;

export interface TagInput {
  name: string;
  colour: string;
}

export const createTag = (input: TagInput) => call<{ tag: Tag }>("POST", "/api/v1/tags", input).then((r) => r.tag);

export const updateTag = (id: string, input: TagInput) =>
  call<{ tag: Tag }>("PUT", `/api/v1/tags/${encodeURIComponent(id)}`, input).then((r) => r.tag);

export const deleteTag = (id: string) => call<unknown>("DELETE", `/api/v1/tags/${encodeURIComponent(id)}`);
