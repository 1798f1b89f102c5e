import type { Reply } from '@libs/simulators/kit/http/reply.js';

import { activityOf, type AuditedKind, auditedKind } from './audit-activities.js';
import type { AppRegistrations } from './app-registrations.js';
import type { DirectoryAuditLog, ModifiedProperty, TargetResource } from './directory-audit.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/** Templates whose requests are reads although not GETs, or are logged request by request. */
const NOT_WRITES = new Set(['/v1.0/$batch']);

/** A write about to be served, and what logs it once answered. */
export type AuditFinish = (reply: Reply) => void;

/**
 * Logs every write the simulator serves as Entra does, one `directoryAudit` record each
 * (directory-audit.ts), with the state of its target before and after the write compared into
 * `modifiedProperties`. Refused writes (an answer other than 2xx) are not logged: Graph logs
 * what changed the directory.
 */
export class WriteAuditor {
  constructor(
    private readonly state: TenantState,
    private readonly apps: AppRegistrations,
    private readonly log: DirectoryAuditLog,
  ) {}

  /**
   * Before a request is served: for a Graph write by a verified app, captures its target and
   * returns what logs it from the answer; undefined for a read or an unauthenticated call (its
   * route answers 401).
   */
  begin(
    method: string,
    template: string,
    params: Record<string, string>,
    authorization: string | undefined,
    bodyText: string,
  ): AuditFinish | undefined {
    if (method === 'GET' || !template.startsWith('/v1.0/') || NOT_WRITES.has(template)) return undefined;
    let appId: string;
    try {
      appId = this.apps.verify(authorization).appId;
    } catch {
      return undefined;
    }
    const kind = auditedKind(template);
    const key = kind.singleton ? undefined : (params.key ?? params.id);
    const before = copy(this.find(kind, key));
    return (reply) => {
      if (reply.status < 200 || reply.status >= 300) return;
      const { name, operationType } = activityOf(kind, method);
      this.log.record({
        category: kind.category,
        activityDisplayName: name,
        loggedByService: kind.loggedByService,
        operationType,
        initiatedBy: this.apps.initiatorOf(appId),
        targetResources: kind.memberLink
          ? this.linkTargets(kind, params, bodyText)
          : [this.target(kind, key ?? idOf(reply), before)],
        additionalDetails: [],
      });
    };
  }

  /** The object `key` names in the kind's collection (a singleton's only object, whatever the key). */
  private find(kind: AuditedKind, key: string | undefined): GraphObject | undefined {
    if (!kind.collection) return undefined;
    const objects = this.state.collection(kind.collection);
    if (kind.singleton) return objects.values().next().value;
    return key === undefined ? undefined : objects.get(key);
  }

  private target(
    kind: AuditedKind,
    key: string | undefined,
    before: GraphObject | undefined,
  ): TargetResource {
    const after = this.find(kind, key ?? before?.id);
    const shown = after ?? before;
    return {
      id: shown?.id ?? key ?? '',
      displayName: typeof shown?.displayName === 'string' ? shown.displayName : null,
      type: kind.targetType,
      userPrincipalName: typeof shown?.userPrincipalName === 'string' ? shown.userPrincipalName : null,
      modifiedProperties: kind.wholeAs
        ? [{ displayName: kind.wholeAs, oldValue: jsonOrNull(before), newValue: jsonOrNull(after) }]
        : changedProperties(before, after),
    };
  }

  /**
   * A member or owner added to or removed from a group: the member first, with the group's id and
   * name as its modified properties, then the group (as "Add member to group" records are).
   */
  private linkTargets(kind: AuditedKind, params: Record<string, string>, bodyText: string): TargetResource[] {
    const memberId = params.memberId ?? params.ref ?? referencedId(bodyText);
    const group = this.state.collection('groups').get(params.id);
    const member =
      this.state.collection('users').get(memberId) ?? this.state.collection('groups').get(memberId);
    const groupName = typeof group?.displayName === 'string' ? group.displayName : null;
    return [
      {
        id: memberId,
        displayName: typeof member?.displayName === 'string' ? member.displayName : null,
        type: kind.targetType,
        userPrincipalName: typeof member?.userPrincipalName === 'string' ? member.userPrincipalName : null,
        modifiedProperties: [
          { displayName: 'Group.ObjectID', oldValue: null, newValue: JSON.stringify(params.id) },
          { displayName: 'Group.DisplayName', oldValue: null, newValue: JSON.stringify(groupName) },
        ],
      },
      {
        id: params.id,
        displayName: groupName,
        type: 'Group',
        userPrincipalName: null,
        modifiedProperties: [],
      },
    ];
  }
}

/**
 * Properties whose value differs between `before` and `after` (JSON text, as Graph logs them); a
 * created object lists the properties it was given a value (not its nulls and empty lists, which
 * keeps a restore of many users from filling the log with them).
 */
function changedProperties(
  before: GraphObject | undefined,
  after: GraphObject | undefined,
): ModifiedProperty[] {
  if (!after) return [];
  const changed: ModifiedProperty[] = [];
  for (const [name, value] of Object.entries(after)) {
    if (name === 'id' || name.startsWith('@')) continue;
    if (!before && (value === null || (Array.isArray(value) && value.length === 0))) continue;
    const oldValue = jsonOrNull(before?.[name]);
    const newValue = jsonOrNull(value);
    if (oldValue !== newValue) changed.push({ displayName: name, oldValue, newValue });
  }
  return changed;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function copy(object: GraphObject | undefined): GraphObject | undefined {
  return object && structuredClone(object);
}

/** The id of the object a create answered with. */
function idOf(reply: Reply): string | undefined {
  if (!reply.body) return undefined;
  try {
    const body = JSON.parse(reply.body.toString()) as { id?: unknown };
    return typeof body.id === 'string' ? body.id : undefined;
  } catch {
    return undefined;
  }
}

/** The object id an `@odata.id` reference body names (`.../directoryObjects/{id}`). */
function referencedId(bodyText: string): string {
  try {
    const body = JSON.parse(bodyText) as Record<string, unknown>;
    return (
      String(body['@odata.id'] ?? '')
        .split('/')
        .pop() ?? ''
    );
  } catch {
    return '';
  }
}
