import type { ChangeActor, ChangeAttribution } from '@libs/providers/provider-connector.js';
import { configurationChangeOf } from './entra-drift.js';
import type { GraphObject } from './graph-object.js';

/**
 * Our resource type of a target of Graph's kind `type` ("targetResource resource type": `User`,
 * `Group`, `Application`, `ServicePrincipal`, `Domain`...), where the kind says it alone. A
 * `Policy`, `Role` or `Directory` target is typed by its activity (POLICY_ACTIVITIES); `Other`
 * is not typed.
 */
const TARGET_TYPES: Readonly<Record<string, string>> = {
  User: 'user',
  Group: 'group',
  Application: 'application',
  ServicePrincipal: 'service_principal',
  Domain: 'domain',
};

/**
 * The resource type of a `Policy` or `Role` target by its activity's name ("Microsoft Entra audit
 * log categories and activities",
 * https://learn.microsoft.com/entra/identity/monitoring-health/reference-audit-activities: "Add
 * conditional access policy", "Update named location", "Authentication Methods Policy Update",
 * "Add role definition"...). An activity matching none leaves the target untyped: its id then
 * attributes the object of any type that has it.
 */
const ACTIVITY_TYPES: ReadonlyArray<[RegExp, string]> = [
  [/conditional access policy/i, 'conditional_access_policy'],
  [/named location/i, 'named_location'],
  [/authentication strength policy/i, 'authentication_strength_policy'],
  [/authentication methods? policy/i, 'authentication_methods_policy'],
  [/authorization policy/i, 'authorization_policy'],
  [/security defaults/i, 'identity_security_defaults_enforcement_policy'],
  [/admin consent request policy/i, 'admin_consent_request_policy'],
  [/cross-tenant access/i, 'cross_tenant_access_policy'],
  [/role definition/i, 'role_definition'],
];

/** Target kinds typed by their activity rather than by their kind. */
const TYPED_BY_ACTIVITY = new Set(['Policy', 'Role']);

/**
 * Who changed which object, from Graph's directory audit records (`directoryAudit` objects, as
 * `auditLogs/directoryAudits` answers them, newest first): configuration changes only, successful
 * ones (entra-drift.ts), oldest first, once per target resource. The actor is `initiatedBy.user`
 * (a person: its id, display name, `userPrincipalName` as `alternateId`, the `ipAddress` it came
 * from) or else `initiatedBy.app` (an app: its service principal id, else its app id); an activity
 * initiated by `clientId` (this connection's own app registration: its `appId`) is
 * `byThisService`. `targetResources[].id` is the object, typed as TARGET_TYPES and ACTIVITY_TYPES
 * say; `activityDateTime` is when, `activityDisplayName` the event type.
 * Source: Graph "directoryAudit resource type", "auditActivityInitiator resource type",
 * "targetResource resource type" (https://learn.microsoft.com/graph/api/resources/directoryaudit).
 *
 * @param audits the records of the period, in any order
 */
export function attributionFromAudits(audits: readonly GraphObject[], clientId: string): ChangeAttribution[] {
  const entries: ChangeAttribution[] = [];
  const oldestFirst = [...audits].sort(
    (a, b) => Date.parse(String(a.activityDateTime)) - Date.parse(String(b.activityDateTime)),
  );
  for (const audit of oldestFirst) {
    if (!configurationChangeOf(audit)) continue;
    const eventType = String(audit.activityDisplayName ?? '');
    const { actor, appId } = actorOf(audit);
    const base = {
      eventId: String(audit.id ?? ''),
      changedAt: String(audit.activityDateTime ?? ''),
      actor,
      eventType,
      byThisService: appId !== undefined && appId === clientId,
    };
    const targets = Array.isArray(audit.targetResources) ? (audit.targetResources as GraphObject[]) : [];
    for (const target of targets) {
      if (typeof target.id !== 'string' || target.id === '') continue;
      const targetType = typeof target.type === 'string' ? target.type : undefined;
      const resourceType = targetType && resourceTypeOf(targetType, eventType);
      entries.push({
        ...base,
        targetId: target.id,
        ...(targetType ? { targetType } : {}),
        ...(resourceType ? { resourceType } : {}),
      });
    }
  }
  return entries;
}

function resourceTypeOf(targetType: string, activity: string): string | undefined {
  if (TYPED_BY_ACTIVITY.has(targetType))
    return ACTIVITY_TYPES.find(([pattern]) => pattern.test(activity))?.[1];
  return TARGET_TYPES[targetType];
}

/** The record's initiator as a ChangeActor, and the initiating app's client id when an app. */
function actorOf(audit: GraphObject): { actor: ChangeActor; appId?: string } {
  const initiatedBy = (audit.initiatedBy ?? {}) as GraphObject;
  const user = initiatedBy.user as GraphObject | null | undefined;
  if (user && typeof user.id === 'string') {
    const upn = typeof user.userPrincipalName === 'string' ? user.userPrincipalName : undefined;
    return {
      actor: {
        id: user.id,
        displayName: String(user.displayName ?? upn ?? user.id),
        type: 'user',
        ...(upn ? { alternateId: upn } : {}),
        ...(typeof user.ipAddress === 'string' && user.ipAddress !== '' ? { ipAddress: user.ipAddress } : {}),
      },
    };
  }
  const app = initiatedBy.app as GraphObject | null | undefined;
  if (app && (typeof app.servicePrincipalId === 'string' || typeof app.appId === 'string')) {
    const appId = typeof app.appId === 'string' ? app.appId : undefined;
    const id = String(app.servicePrincipalId || appId);
    return {
      actor: {
        id,
        displayName: String(app.displayName ?? app.servicePrincipalName ?? id),
        type: 'app',
        ...(appId && appId !== id ? { alternateId: appId } : {}),
      },
      ...(appId ? { appId } : {}),
    };
  }
  return { actor: { id: 'unknown', displayName: 'Microsoft Entra ID', type: 'system' } };
}
