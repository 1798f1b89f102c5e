import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { requestCallers } from '@libs/simulators/okta/auth/request-caller.js';
import type { LogActor, LogTarget } from '@libs/simulators/okta/store/system-log.js';

/** The System Log target for a user (`alternateId` is the login), as Okta writes it. */
export function userTarget(user: Json): LogTarget {
  const profile = (user.profile ?? {}) as Json;
  return {
    id: String(user.id),
    type: 'User',
    alternateId: String(profile.login ?? 'unknown'),
    displayName: [profile.firstName, profile.lastName].filter((p) => typeof p === 'string').join(' '),
  };
}

/** The System Log target for a group (`UserGroup`; Okta gives no alternate id). */
export function groupTarget(group: Json): LogTarget {
  return {
    id: String(group.id),
    type: 'UserGroup',
    alternateId: 'unknown',
    displayName: String(((group.profile ?? {}) as Json).name ?? 'unknown'),
  };
}

/** A target of another kind (`AppInstance`, `PolicyEntity`...) labelled by `label`, else `name`. */
export function objectTarget(type: string, data: Json): LogTarget {
  const label = String(data.label ?? data.name ?? 'unknown');
  return { id: String(data.id), type, alternateId: label, displayName: label };
}

/**
 * Appends an event to the org's System Log, published now (millisecond precision, as Okta's
 * `published`), acted by whoever made the request being served (auth/request-caller.ts): the
 * admin an API token belongs to, or the service app (`PublicClientApp`, its client id) an access
 * token was issued to; outside a request, by the org's admin. The event's `client` carries the
 * request's IP address and user agent.
 */
export function recordEvent(
  org: OrgContext,
  eventType: string,
  displayMessage: string,
  targets: LogTarget[],
): void {
  const caller = requestCallers.getStore();
  const client = caller ? { ipAddress: caller.ipAddress, userAgent: caller.userAgent } : undefined;
  const actor = actorOf(org, caller?.who ?? { kind: 'user', userId: null });
  org.state.systemLog.record(
    eventType,
    displayMessage,
    actor,
    targets,
    new Date(org.now()).toISOString(),
    client,
  );
}

function actorOf(
  org: OrgContext,
  who: NonNullable<ReturnType<typeof requestCallers.getStore>>['who'],
): LogActor {
  if (who.kind === 'client')
    return {
      id: who.clientId,
      type: 'PublicClientApp',
      alternateId: who.clientId,
      displayName: who.clientId,
    };
  const userId = who.userId ?? org.state.adminUserId;
  const user = org.state.users.get(userId)?.data;
  return user
    ? { ...userTarget(user), type: 'User' }
    : { id: userId, type: 'User', alternateId: 'admin', displayName: 'Okta Admin' };
}
