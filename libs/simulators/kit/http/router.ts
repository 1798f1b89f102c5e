import type { IncomingHttpHeaders } from 'node:http';

import type { Reply } from './reply.js';

/** Everything a handler may read about the request. */
export interface RequestContext {
  method: string;
  url: URL;
  /** Path parameters named as in the OpenAPI template (`{groupId}` -> `params.groupId`). */
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The request body as text ('' when none). */
  bodyText: string;
}

/**
 * How a route is protected. `admin`: SSWS token or a Bearer token carrying `scopes` (any of);
 * `public`: no credentials (the token endpoint authenticates clients itself).
 */
export type RouteAccess = { kind: 'admin'; scopes: readonly string[] } | { kind: 'public' };

export interface Route {
  method: string;
  /** OpenAPI path template, e.g. `/api/v1/groups/{groupId}/users`; also the request-log key. */
  template: string;
  access: RouteAccess;
  handle(context: RequestContext): Reply | Promise<Reply>;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' };

interface CompiledRoute {
  route: Route;
  segments: Array<{ literal: string } | { param: string }>;
}

/**
 * Matches a method and path to a route. Literal segments win over parameters at the same
 * position (`/api/v1/groups/rules` before `/api/v1/groups/{groupId}`), whatever the
 * registration order.
 */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...routes: Route[]): void {
    for (const route of routes) {
      const segments = route.template
        .split('/')
        .slice(1)
        .map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s }));
      this.routes.push({ route, segments });
    }
    this.routes.sort((a, b) => specificity(b) - specificity(a));
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split('/').slice(1);
    let pathMatched = false;
    for (const { route, segments } of this.routes) {
      if (segments.length !== parts.length) continue;
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      pathMatched = true;
    }
    return { kind: pathMatched ? 'method-not-allowed' : 'not-found' };
  }
}

function matchSegments(
  segments: CompiledRoute['segments'],
  parts: string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if ('literal' in segment) {
      if (segment.literal !== parts[i]) return undefined;
    } else {
      if (parts[i] === '') return undefined;
      params[segment.param] = decodeURIComponent(parts[i]);
    }
  }
  return params;
}

/** Literal segments weigh more the earlier they come, so the most literal template sorts first. */
function specificity(route: CompiledRoute): number {
  return route.segments.reduce((sum, s, i) => sum + ('literal' in s ? 2 ** (16 - i) : 0), 0);
}
