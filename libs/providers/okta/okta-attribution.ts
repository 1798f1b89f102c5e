import type { ChangeActor, ChangeAttribution } from '@libs/providers/provider-connector.js';
import type { OktaApiClient, OktaObject } from './okta-api-client.js';
import { configurationEventsFromLog } from './okta-drift.js';

/** A System Log target (OpenAPI `LogTarget`). */
interface LogTarget {
  id?: unknown;
  type?: unknown;
}

/**
 * Event types whose object is a record of a child type, and how its record id is made from the
 * event's targets (Okta event types catalog; record ids in docs/resource-types.md): a group
 * membership names the user and the group (`<groupId>:<userId>`); a role grant or revoke names
 * the user whose `admin_role_assignment` (`<userId>:<assignmentId>`) changed.
 */
const CHILD_EVENTS: ReadonlyArray<{
  prefix: string;
  resourceType: string;
  targetId: (targets: LogTarget[]) => string | undefined;
}> = [
  {
    prefix: 'group.user_membership.',
    resourceType: 'group_membership',
    targetId: (targets) => {
      const groupId = idOf(targets, 'UserGroup');
      const userId = idOf(targets, 'User');
      return groupId && userId ? `${groupId}:${userId}` : undefined;
    },
  },
  {
    prefix: 'application.user_membership.',
    resourceType: 'app_user_assignment',
    targetId: (targets) => {
      const appId = idOf(targets, 'AppInstance');
      const userId = idOf(targets, 'User');
      return appId && userId ? `${appId}:${userId}` : undefined;
    },
  },
  {
    prefix: 'user.account.privilege.',
    resourceType: 'admin_role_assignment',
    targetId: (t) => idOf(t, 'User'),
  },
];

/** The resource type of a System Log target's kind (OpenAPI `LogTarget.type`), where it is one. */
const TARGET_TYPES: Readonly<Record<string, string>> = {
  User: 'user',
  UserGroup: 'group',
  AppInstance: 'app',
  PolicyEntity: 'policy',
  PolicyRule: 'policy_rule',
  Authenticator: 'authenticator',
  IdentityProvider: 'identity_provider',
  EventHook: 'event_hook',
  InlineHook: 'inline_hook',
  NetworkZone: 'network_zone',
};

/**
 * Who changed which object between `since` and `until` (ISO 8601), from the System Log
 * (`GET /api/v1/logs`, scope okta.logs.read), oldest first: each configuration event
 * (okta-drift.ts) that succeeded, once per object it changed. The actor is the event's `actor`
 * (`User` a person; `PublicClientApp` and other clients an app; `SystemPrincipal` Okta itself)
 * with the `client`'s IP address and raw user agent; an event made with `clientId` (this
 * connection's own service app) is `byThisService`.
 * Source: Okta System Log API, `LogEvent` (https://developer.okta.com/docs/api/openapi/okta-management/management/tag/SystemLog/).
 */
export async function* attributionFromLog(
  api: OktaApiClient,
  clientId: string,
  since: string,
  until: string,
  signal?: AbortSignal,
): AsyncGenerator<ChangeAttribution> {
  for await (const event of configurationEventsFromLog(api, since, until, signal)) {
    const outcome = (event.outcome ?? {}) as OktaObject;
    if (outcome.result !== undefined && outcome.result !== 'SUCCESS') continue;
    const eventType = String(event.eventType);
    const actor = actorOf(event);
    const base = {
      eventId: String(event.uuid ?? ''),
      changedAt: String(event.published ?? ''),
      actor,
      eventType,
      byThisService: actor.id === clientId,
    };
    const targets = Array.isArray(event.target) ? (event.target as LogTarget[]) : [];
    const child = CHILD_EVENTS.find((rule) => eventType.startsWith(rule.prefix));
    if (child) {
      const targetId = child.targetId(targets);
      if (targetId) yield { ...base, targetId, resourceType: child.resourceType };
      continue;
    }
    for (const target of targets) {
      if (typeof target.id !== 'string' || target.id === '') continue;
      const targetType = typeof target.type === 'string' ? target.type : undefined;
      const resourceType = targetType ? TARGET_TYPES[targetType] : undefined;
      yield {
        ...base,
        targetId: target.id,
        ...(targetType ? { targetType } : {}),
        ...(resourceType ? { resourceType } : {}),
      };
    }
  }
}

function actorOf(event: OktaObject): ChangeActor {
  const actor = (event.actor ?? {}) as OktaObject;
  const client = (event.client ?? {}) as OktaObject;
  const userAgent = ((client.userAgent ?? {}) as OktaObject).rawUserAgent;
  const kind = String(actor.type ?? '');
  return {
    id: String(actor.id ?? 'unknown'),
    displayName: String(actor.displayName ?? actor.alternateId ?? 'unknown'),
    type: kind === 'User' ? 'user' : kind === 'SystemPrincipal' ? 'system' : 'app',
    ...(typeof actor.alternateId === 'string' && actor.alternateId !== 'unknown'
      ? { alternateId: actor.alternateId }
      : {}),
    ...(typeof client.ipAddress === 'string' ? { ipAddress: client.ipAddress } : {}),
    ...(typeof userAgent === 'string' ? { userAgent } : {}),
  };
}

function idOf(targets: LogTarget[], type: string): string | undefined {
  const target = targets.find((t) => t.type === type && typeof t.id === 'string' && t.id !== '');
  return target?.id as string | undefined;
}
