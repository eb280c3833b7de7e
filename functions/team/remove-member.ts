import { removeTeamMember } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("DELETE /api/v1/team/members/{userId}", {}, ({ principal, params }) =>
  removeTeamMember(principal, params.userId ?? ""),
);
