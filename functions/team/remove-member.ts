import { removeTeamMember } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("DELETE /api/v1/team/members/{userId}"), {}, ({ principal, params, sourceIp }) =>
  removeTeamMember(principal, sourceIp, params.userId),
);
