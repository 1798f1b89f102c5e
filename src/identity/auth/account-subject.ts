import { isUUID } from 'class-validator';

/** A person acting in one team: the resource owner of a user's token. */
export interface AccountRef {
  userId: string;
  teamId: string;
}

/**
 * The authorization server's account id, and so the `sub` of a user's access token (RFC 9068
 * §2.2): `<user id>:<team id>`. A person in two teams is two accounts, because the team (and
 * the role in it) decides what the token may do; the API resolves the current role on each
 * request. It never equals a client id (`ic_...`, `rc_...` or an https URL), which is how the
 * API tells a user's token from a client's own (`sub` = `client_id`).
 */
export function formatAccountSubject({ userId, teamId }: AccountRef): string {
  return `${userId}:${teamId}`;
}

/** @returns null unless `subject` is `<uuid>:<uuid>`. */
export function parseAccountSubject(subject: string): AccountRef | null {
  const [userId, teamId, extra] = subject.split(':');
  if (extra !== undefined || !isUUID(userId) || !isUUID(teamId)) return null;
  return { userId, teamId };
}
