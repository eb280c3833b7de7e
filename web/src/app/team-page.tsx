import { useQuery } from "@tanstack/react-query";
import { activeKeyNames, apiKeysQuery } from "../features/api-keys/queries";
import { TeamPage as Team } from "../features/team/team-page";
import { apiKeysRefusal, useMe } from "../lib/access";

/**
 * Settings → Team, told which API keys each member made, so removing someone names the keys that
 * stop working; read only where this person may see the keys.
 */
export function TeamPage() {
  const me = useMe();
  const keys = useQuery({ ...apiKeysQuery, enabled: apiKeysRefusal(me) === undefined });
  const list = keys.data?.keys;
  return <Team activeKeysOf={list ? (email) => activeKeyNames(list, email) : undefined} />;
}
