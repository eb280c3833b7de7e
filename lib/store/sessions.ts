import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { getItem } from "./items";
import { keys } from "./keys";

/** A signed-in session, keyed by its token's hash (lib/auth/sessions.ts). */
export interface Session {
  userId: string;
  orgId: string;
  /** The member's sessionEpoch when the session was made (absent: 0). */
  epoch?: number;
  createdAt: string;
  expiresAt: string;
}

export const sessionItem = (tokenHash: string, session: Session) => ({
  ...keys.session(tokenHash),
  type: "session",
  ...session,
  ttl: Math.floor(Date.parse(session.expiresAt) / 1000),
});

/** The session by its token's hash (GetItem); the caller checks its expiry (TTL deletes lazily). */
export const getSession = (tokenHash: string) => getItem<Session>(keys.session(tokenHash));

export async function putSession(tokenHash: string, session: Session): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: sessionItem(tokenHash, session) }));
}

export async function deleteSession(tokenHash: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(tokenHash) }));
}
