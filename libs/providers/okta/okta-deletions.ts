import type { DeletedRecord } from '@libs/providers/provider-connector.js';
import type { ListRequest, OktaApiClient, OktaObject } from './okta-api-client.js';

/** listLogEvents: "Integer between 0 and 1000". */
export const LOG_PAGE_LIMIT = 1000;
export const LOGS_TEMPLATE = '/api/v1/logs';

/** One target of a System Log event (OpenAPI `LogTarget`): `type` is `User`, `UserGroup`... */
interface LogTarget {
  id?: unknown;
  type?: unknown;
}

/**
 * System Log event types that mean a record of an incrementally collected type is gone, and
 * the record they name, from the event's targets (Okta event types catalog): a user deleted
 * (the second DELETE of deleteUser), a group deleted, a member removed from a group.
 */
const DELETION_EVENTS: Readonly<Record<string, (targets: LogTarget[]) => DeletedRecord | null>> = {
  'user.lifecycle.delete.completed': (targets) => single('user', targets, 'User'),
  'group.lifecycle.delete': (targets) => single('group', targets, 'UserGroup'),
  'group.user_membership.remove': (targets) => {
    const userId = targetId(targets, 'User');
    const groupId = targetId(targets, 'UserGroup');
    return userId && groupId ? { type: 'group_membership', id: `${groupId}:${userId}` } : null;
  },
};

/** `eventType eq "a" or eventType eq "b"...`: the System Log filter for DELETION_EVENTS. */
export const DELETION_FILTER = Object.keys(DELETION_EVENTS)
  .map((eventType) => `eventType eq "${eventType}"`)
  .join(' or ');

/**
 * Deletions recorded in the System Log between `since` and `until` (ISO 8601), oldest first:
 * a bounded query (`since` + `until`, sortOrder ASCENDING) paged with `Link: rel="next"` at
 * 1000 events a page. A bounded query ends when a page has no next link; an empty page ends it
 * too, as Okta's polling guidance says (System Log API, "Polling requests").
 */
export async function* deletionsFromLog(
  api: OktaApiClient,
  since: string,
  until: string,
  signal?: AbortSignal,
): AsyncGenerator<DeletedRecord> {
  const list: ListRequest = {
    template: LOGS_TEMPLATE,
    query: { since, until, filter: DELETION_FILTER, sortOrder: 'ASCENDING', limit: LOG_PAGE_LIMIT },
    signal,
  };
  for await (const page of api.pages(list)) {
    if (page.length === 0) return;
    for (const event of page) {
      const deleted = deletionOf(event);
      if (deleted) yield deleted;
    }
  }
}

function deletionOf(event: OktaObject): DeletedRecord | null {
  const read = typeof event.eventType === 'string' ? DELETION_EVENTS[event.eventType] : undefined;
  const targets = Array.isArray(event.target) ? (event.target as LogTarget[]) : [];
  return read ? read(targets) : null;
}

function targetId(targets: LogTarget[], type: string): string | undefined {
  const target = targets.find((t) => t.type === type && typeof t.id === 'string' && t.id !== '');
  return target?.id as string | undefined;
}

function single(recordType: string, targets: LogTarget[], targetType: string): DeletedRecord | null {
  const id = targetId(targets, targetType);
  return id ? { type: recordType, id } : null;
}
