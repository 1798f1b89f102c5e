import type { Reply } from '@libs/simulators/kit/http/reply.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';

import type { AppRegistrations } from './app-registrations.js';
import { GraphError } from './graph-error.js';
import type { TenantState } from './tenant-state.js';

/** What the routes read: the tenant, its apps, and the simulator's own origin for links. */
export interface GraphContext {
  state: TenantState;
  apps: AppRegistrations;
  baseUrl: string;
}

/**
 * Checks the request's bearer token carries any of `roles`.
 * @throws GraphError 401 for a missing or bad token, 403 `Authorization_RequestDenied` without the role
 */
export function requireRole(
  graph: GraphContext,
  authorization: string | undefined,
  roles: readonly string[],
): void {
  const principal = graph.apps.verify(authorization);
  if (!principal.roles.some((role) => roles.includes(role)))
    throw new GraphError(
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation.',
    );
}

/**
 * A Graph v1.0 route open to a token carrying any of `roles`, the application permissions the
 * operation's "Permissions" table lists (least privileged first).
 */
export function graphRoute(
  graph: GraphContext,
  method: string,
  template: string,
  roles: readonly string[],
  handle: (context: RequestContext) => Reply,
): Route {
  return {
    method,
    template,
    access: { kind: 'public' },
    handle(context) {
      requireRole(graph, context.headers.authorization, roles);
      return handle(context);
    },
  };
}
