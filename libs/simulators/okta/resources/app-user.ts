import type { Json } from '@libs/simulators/okta/store/entry.js';

/**
 * The AppUser Okta answers when a user is assigned to an app (Application Users API): the
 * app-specific profile (what the client sent), `credentials.userName` from the login, status
 * ACTIVE, scope USER unless stated. No `externalId`: Okta only sets it for provisioning apps.
 */
export function newAppUser(user: Json, body: Json, now: string): Json {
  const profile = user.profile as { login?: string } | undefined;
  return {
    id: user.id,
    created: now,
    lastUpdated: now,
    scope: body.scope ?? 'USER',
    status: 'ACTIVE',
    statusChanged: now,
    passwordChanged: null,
    syncState: 'DISABLED',
    credentials: body.credentials ?? { userName: profile?.login ?? null },
    profile: body.profile ?? {},
  };
}
