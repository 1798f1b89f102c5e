import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import type { LogTarget } from '@libs/simulators/okta/store/system-log.js';

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
 * `published`), acted by the org admin the API token belongs to.
 */
export function recordEvent(
  org: OrgContext,
  eventType: string,
  displayMessage: string,
  targets: LogTarget[],
): void {
  const admin = org.state.users.get(org.state.adminUserId)?.data;
  const actor = admin
    ? { ...userTarget(admin), type: 'User' }
    : { id: org.state.adminUserId, type: 'User', alternateId: 'admin', displayName: 'Okta Admin' };
  org.state.systemLog.record(eventType, displayMessage, actor, targets, new Date(org.now()).toISOString());
}
