import { api, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";

/** One step of a request about a person's data: the address, and where the previous step stopped. */
export interface Step {
  email: string;
  cursor?: string;
}

/** One erasure request across the organization: deletes what it reaches in its time budget and says whether it is done. */
export const eraseStep = (body: Step) => unwrap(api.POST("/api/v1/organization/erasures", { body })).then((r) => r.data);

/** One access request step: the submissions it found in its time budget, and a cursor while there is more. */
export const accessStep = (body: Step) => unwrap(api.POST("/api/v1/organization/access-requests", { body })).then((r) => r.data);

export type AccessedSubmission = Answer<"requestAccessResponse">["submissions"][number];
