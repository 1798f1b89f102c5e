import { randomBytes } from 'node:crypto';

import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, json, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody, queryFlag } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { groupTarget, recordEvent, userTarget } from './audit.js';
import { serialize, userListText } from './links.js';
import { listFilter } from './list-filter.js';
import { applyUserOperation, USER_TRANSITIONS, type UserOperation } from './user-lifecycle.js';
import { requireText } from './validation.js';

const PROFILE_REQUIRED = ['login', 'email', 'firstName', 'lastName'];

/** The System Log event of each lifecycle operation (Okta event types catalog). */
const LIFECYCLE_EVENTS: Record<UserOperation, string> = {
  activate: 'user.lifecycle.activate',
  reactivate: 'user.lifecycle.reactivate',
  deactivate: 'user.lifecycle.deactivate',
  suspend: 'user.lifecycle.suspend',
  unsuspend: 'user.lifecycle.unsuspend',
  unlock: 'user.account.unlock',
  expire_password: 'user.account.expire_password',
  reset_password: 'user.account.reset_password',
};

/**
 * The realm a create or update body puts the user in: `realmId` of CreateUserRequest and
 * UpdateUserRequest (management.yaml); recorded users answer it beside `type`.
 */
function realmOf(body: Json): Json {
  return typeof body.realmId === 'string' ? { realmId: body.realmId } : {};
}

/**
 * The filter Okta's listUsers accepts: "`status`, `lastUpdated`, `id`, `profile.login`,
 * `profile.email`, `profile.firstName`, and `profile.lastName`", with `eq` only, except
 * `lastUpdated`, which "can also use the inequality" operators (OpenAPI listUsers `filter`).
 */
const USER_FILTER = {
  properties: [
    'status',
    'lastUpdated',
    'id',
    'profile.login',
    'profile.email',
    'profile.firstName',
    'profile.lastName',
  ],
  operators: (property: string) => (property === 'lastUpdated' ? ['eq', 'gt', 'ge', 'lt', 'le'] : ['eq']),
};

/** Okta's credentials object for a user: the password itself is never returned. */
function credentialsFrom(body: Json): Json {
  const given = (body.credentials ?? {}) as {
    password?: unknown;
    recovery_question?: { question?: unknown };
  };
  return {
    ...(given.password === undefined ? {} : { password: {} }),
    ...(given.recovery_question?.question === undefined
      ? {}
      : { recovery_question: { question: given.recovery_question.question } }),
    provider: { type: 'OKTA', name: 'OKTA' },
  };
}

/**
 * `/api/v1/users`: list (DEPROVISIONED users only appear when `filter` or `search` is given,
 * per listUsers), create (`activate`, default true: ACTIVE with a password, else PROVISIONED;
 * `activate=false`: STAGED), get by id or login, partial (POST) and full (PUT) profile updates,
 * delete (a first DELETE deactivates, a second deletes: deleteUser), the user's groups and the
 * lifecycle operations of user-lifecycle.ts.
 */
export function userRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.users') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.users') } as const;
  const { state } = org;
  const now = () => oktaTimestamp(org.now());
  const existing = ({ params }: RequestContext): Entry => {
    const id = state.findUserId(params.id);
    const entry = id === undefined ? undefined : state.users.get(id);
    if (!entry) throw notFound(params.id, 'User');
    return entry;
  };
  const item = (entry: Entry) => jsonText(200, serialize('user', entry, org.baseUrl));

  const checkProfile = (profile: Json, selfId?: string) => {
    for (const field of PROFILE_REQUIRED) requireText({ profile }, `profile.${field}`);
    const owner = state.userIdForLogin(String(profile.login));
    if (owner !== undefined && owner !== selfId)
      throw validationFailed(
        'login',
        'login: An object with this field already exists in the current organization',
      );
  };

  const update = (context: RequestContext, merge: boolean) => {
    const current = existing(context);
    const body = jsonBody(context);
    const previous = current.data.profile as Json;
    const profile = merge
      ? { ...previous, ...(body.profile as Json | undefined) }
      : ((body.profile ?? {}) as Json);
    checkProfile(profile, String(current.data.id));
    // "A user can only be assigned a different user type by an admin through a full replacement
    // (PUT)" (UpdateUserRequest.type).
    const type =
      !merge && typeof (body.type as Json | undefined)?.id === 'string'
        ? { type: { id: (body.type as Json).id } }
        : {};
    const entry = replaced(current, {
      ...current.data,
      ...type,
      ...realmOf(body),
      profile,
      lastUpdated: now(),
    });
    state.putUser(String(current.data.id), entry);
    recordEvent(org, 'user.account.update_profile', 'Update user profile for Okta', [userTarget(entry.data)]);
    return item(entry);
  };

  /** Applies a lifecycle operation; deactivation also removes the user's app assignments. */
  const transition = (current: Entry, operation: UserOperation): Entry => {
    const entry = replaced(current, applyUserOperation(current.data, operation, now()));
    const id = String(current.data.id);
    state.putUser(id, entry);
    if (operation === 'deactivate')
      for (const [, assignments] of state.appUsers.parents()) assignments.delete(id);
    recordEvent(org, LIFECYCLE_EVENTS[operation], `${operation} Okta user`, [userTarget(entry.data)]);
    return entry;
  };

  const routes: Route[] = [
    {
      method: 'GET',
      template: '/api/v1/users',
      access: read,
      handle: (context) => {
        const filter = listFilter(context.url, ['profile.firstName', 'profile.lastName', 'profile.email'], {
          filterRules: USER_FILTER,
        });
        const query = context.url.searchParams;
        const all = query.has('filter') || query.has('search');
        return listReply(context, org.baseUrl, state.users, {
          limits: PAGE_LIMITS.users,
          params: ['search', 'filter', 'q'],
          accept: (e) => (all || e.data.status !== 'DEPROVISIONED') && (!filter || filter(e.data)),
          serialize: (e) => userListText(e, org.baseUrl),
        });
      },
    },
    {
      method: 'POST',
      template: '/api/v1/users',
      access: write,
      handle: (context) => {
        const body = jsonBody(context);
        const profile = (body.profile ?? {}) as Json;
        checkProfile(profile);
        const groupIds = Array.isArray(body.groupIds) ? body.groupIds.map(String) : [];
        for (const groupId of groupIds) if (!state.groups.has(groupId)) throw notFound(groupId, 'UserGroup');
        const at = now();
        const id = oktaId(ID_PREFIX.user);
        const credentials = credentialsFrom(body);
        const staged: Json = {
          id,
          status: 'STAGED',
          created: at,
          activated: null,
          statusChanged: null,
          lastLogin: null,
          lastUpdated: at,
          passwordChanged: credentials.password === undefined ? null : at,
          type: { id: (body.type as { id?: string } | undefined)?.id ?? state.defaultUserTypeId },
          ...realmOf(body),
          profile,
          credentials,
        };
        const data = queryFlag(context.url, 'activate', true)
          ? applyUserOperation(staged, 'activate', at)
          : staged;
        const entry = { data };
        state.putUser(id, entry);
        recordEvent(org, 'user.lifecycle.create', 'Create Okta user', [userTarget(data)]);
        for (const groupId of [...(state.everyoneGroupId ? [state.everyoneGroupId] : []), ...groupIds]) {
          state.addMember(groupId, id);
          state.touchMembership(groupId, at);
          const group = state.groups.get(groupId)?.data ?? { id: groupId };
          recordEvent(org, 'group.user_membership.add', 'Add user to group membership', [
            userTarget(data),
            groupTarget(group),
          ]);
        }
        return item(entry);
      },
    },
    {
      method: 'GET',
      template: '/api/v1/users/{id}',
      access: read,
      handle: (context) => item(existing(context)),
    },
    {
      method: 'POST',
      template: '/api/v1/users/{id}',
      access: write,
      handle: (context) => update(context, true),
    },
    {
      method: 'PUT',
      template: '/api/v1/users/{id}',
      access: write,
      handle: (context) => update(context, false),
    },
    {
      method: 'DELETE',
      template: '/api/v1/users/{id}',
      access: write,
      handle: (context) => {
        const current = existing(context);
        if (current.data.status !== 'DEPROVISIONED') {
          transition(current, 'deactivate');
          return empty(204);
        }
        state.removeUser(String(current.data.id), now());
        const target = [userTarget(current.data)];
        recordEvent(org, 'user.lifecycle.delete.initiated', 'Delete Okta user', target);
        recordEvent(org, 'user.lifecycle.delete.completed', 'Delete Okta user completed', target);
        return empty(204);
      },
    },
    {
      method: 'GET',
      template: '/api/v1/users/{id}/groups',
      access: read,
      handle: (context) => {
        const groups = [...state.groupIdsOf(String(existing(context).data.id))].flatMap((groupId) => {
          const group = state.groups.get(groupId);
          return group ? [serialize('group', group, org.baseUrl)] : [];
        });
        return jsonText(200, `[${groups.join(',')}]`);
      },
    },
  ];
  for (const operation of Object.keys(USER_TRANSITIONS) as UserOperation[]) {
    routes.push({
      method: 'POST',
      template: `/api/v1/users/{id}/lifecycle/${operation}`,
      access: write,
      handle: (context) => {
        const entry = transition(existing(context), operation);
        if (operation === 'expire_password') return item(entry);
        // Tokens are only returned when Okta is told not to email them (sendEmail=false).
        if (!queryFlag(context.url, 'sendEmail', true)) {
          const token = randomBytes(15).toString('base64url');
          if (operation === 'activate' || operation === 'reactivate')
            return json(200, { activationUrl: `${org.baseUrl}/welcome/${token}`, activationToken: token });
          if (operation === 'reset_password')
            return json(200, { resetPasswordUrl: `${org.baseUrl}/reset_password/${token}` });
        }
        return json(200, {});
      },
    });
  }
  return routes;
}
