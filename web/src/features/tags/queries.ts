import { api, unwrap } from "../../api/client";
import type { Tag } from "../../lib/triage";

/** Settings → Tags: the organization's tags (docs/api.md, "Tags"); the list itself is `tagsQuery` (lib/triage.ts). */
export const TAG_LIMIT = 50;

export interface TagInput {
  name: string;
  colour: Tag["colour"];
}

export const createTag = async (body: TagInput) => (await unwrap(api.POST("/api/v1/tags", { body }))).data.tag;

export const updateTag = async (tagId: string, body: TagInput) =>
  (await unwrap(api.PUT("/api/v1/tags/{tagId}", { params: { path: { tagId } }, body }))).data.tag;

export const deleteTag = (tagId: string) => unwrap(api.DELETE("/api/v1/tags/{tagId}", { params: { path: { tagId } } }));
