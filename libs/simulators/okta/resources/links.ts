import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';

/** `list`: how an object appears in a collection; `item`: as GET by id returns it. */
export type View = 'list' | 'item';

type LinkBuilder = (data: Json, base: string, parents: readonly string[], view: View) => Json;

const href = (url: string): Json => ({ href: url });
const allow = (url: string, ...methods: string[]): Json => ({ href: url, hints: { allow: methods } });
const post = (url: string): Json => ({ href: url, method: 'POST' });

/** activate or deactivate, whichever applies to the object's status (Okta lists only that one). */
function toggle(data: Json, url: string, style: (url: string) => Json = (u) => allow(u, 'POST')): Json {
  return data.status === 'ACTIVE'
    ? { deactivate: style(`${url}/lifecycle/deactivate`) }
    : { activate: style(`${url}/lifecycle/activate`) };
}

/** Lifecycle operations Okta links from a user, by status (Users API, user status diagram). */
const USER_OPERATIONS: Record<string, readonly string[]> = {
  STAGED: ['activate', 'deactivate'],
  PROVISIONED: ['suspend', 'resetPassword', 'reactivate', 'resetFactors', 'deactivate'],
  ACTIVE: [
    'suspend',
    'resetPassword',
    'expirePassword',
    'forgotPassword',
    'resetFactors',
    'deactivate',
    'changePassword',
  ],
  RECOVERY: ['suspend', 'resetPassword', 'expirePassword', 'resetFactors', 'deactivate'],
  PASSWORD_EXPIRED: ['suspend', 'resetPassword', 'resetFactors', 'deactivate'],
  LOCKED_OUT: ['unlock', 'suspend', 'resetPassword', 'resetFactors', 'deactivate'],
  SUSPENDED: ['unsuspend', 'resetPassword', 'resetFactors', 'deactivate'],
  DEPROVISIONED: ['activate'],
};

const USER_OPERATION_PATHS: Record<string, string> = {
  activate: 'lifecycle/activate',
  deactivate: 'lifecycle/deactivate',
  suspend: 'lifecycle/suspend',
  unsuspend: 'lifecycle/unsuspend',
  unlock: 'lifecycle/unlock',
  reactivate: 'lifecycle/reactivate',
  resetPassword: 'lifecycle/reset_password',
  expirePassword: 'lifecycle/expire_password',
  resetFactors: 'lifecycle/reset_factors',
  forgotPassword: 'credentials/forgot_password',
  changePassword: 'credentials/change_password',
};

function userLinks(data: Json, base: string, _parents: readonly string[], view: View): Json {
  const self = `${base}/api/v1/users/${String(data.id)}`;
  // "For a collection of users, the links object contains only the self link" (OpenAPI User._links).
  if (view === 'list') return { self: href(self) };
  const links: Json = {};
  for (const operation of USER_OPERATIONS[String(data.status)] ?? [])
    links[operation] = post(`${self}/${USER_OPERATION_PATHS[operation]}`);
  const type = (data.type as { id?: string } | undefined)?.id;
  if (type) links.type = href(`${base}/api/v1/meta/types/user/${type}`);
  links.self = href(self);
  return links;
}

const LINKS: Partial<Record<OktaResourceType, LinkBuilder>> = {
  user: userLinks,
  group: (d, base) => ({
    owners: href(`${base}/api/v1/groups/${String(d.id)}/owners`),
    logo: [
      { name: 'medium', href: `${base}/assets/img/logos/groups/okta-medium.png`, type: 'image/png' },
      { name: 'large', href: `${base}/assets/img/logos/groups/okta-large.png`, type: 'image/png' },
    ],
    users: href(`${base}/api/v1/groups/${String(d.id)}/users`),
    apps: href(`${base}/api/v1/groups/${String(d.id)}/apps`),
  }),
  app: (d, base) => {
    const self = `${base}/api/v1/apps/${String(d.id)}`;
    return {
      uploadLogo: allow(`${self}/logo`, 'POST'),
      logo: [
        {
          name: 'medium',
          href: `${base}/assets/img/logos/apps/${String(d.name)}-medium.png`,
          type: 'image/png',
        },
      ],
      users: href(`${self}/users`),
      groups: href(`${self}/groups`),
      policies: allow(`${self}/policies`, 'PUT'),
      ...toggle(d, self, href),
    };
  },
  app_user_assignment: (d, base, [appId]) => ({
    app: href(`${base}/api/v1/apps/${appId}`),
    user: href(`${base}/api/v1/users/${String(d.id)}`),
  }),
  app_group_assignment: (d, base, [appId]) => ({
    app: href(`${base}/api/v1/apps/${appId}`),
    self: href(`${base}/api/v1/apps/${appId}/groups/${String(d.id)}`),
    group: href(`${base}/api/v1/groups/${String(d.id)}`),
  }),
  policy: (d, base) => {
    const self = `${base}/api/v1/policies/${String(d.id)}`;
    return {
      self: allow(self, ...(d.system === true ? ['GET', 'PUT'] : ['GET', 'PUT', 'DELETE'])),
      rules: allow(`${self}/rules`, 'GET', 'POST'),
      ...toggle(d, self),
    };
  },
  policy_rule: (d, base, [policyId]) => {
    const self = `${base}/api/v1/policies/${policyId}/rules/${String(d.id)}`;
    return { self: allow(self, 'GET', 'PUT', 'DELETE'), ...toggle(d, self) };
  },
  authorization_server: (d, base) => {
    const self = `${base}/api/v1/authorizationServers/${String(d.id)}`;
    const issuer = `${base}/oauth2/${String(d.id)}`;
    return {
      rotateKey: allow(`${self}/credentials/lifecycle/keyRotate`, 'POST'),
      metadata: ['oauth-authorization-server', 'openid-configuration'].map((name) => ({
        name,
        ...allow(`${issuer}/.well-known/${name}`, 'GET'),
      })),
      keys: allow(`${self}/credentials/keys`, 'GET'),
      claims: allow(`${self}/claims`, 'GET', 'POST'),
      policies: allow(`${self}/policies`, 'GET', 'POST'),
      self: allow(self, 'GET', 'DELETE', 'PUT'),
      scopes: allow(`${self}/scopes`, 'GET', 'POST'),
      ...toggle(d, self),
    };
  },
  authorization_server_scope: (d, base, [authServerId]) => ({
    self: allow(
      `${base}/api/v1/authorizationServers/${authServerId}/scopes/${String(d.id)}`,
      'GET',
      'PUT',
      'DELETE',
    ),
  }),
  authorization_server_claim: (d, base, [authServerId]) => ({
    self: allow(
      `${base}/api/v1/authorizationServers/${authServerId}/claims/${String(d.id)}`,
      'GET',
      'PUT',
      'DELETE',
    ),
  }),
  authorization_server_policy: (d, base, [authServerId]) => {
    const self = `${base}/api/v1/authorizationServers/${authServerId}/policies/${String(d.id)}`;
    return {
      self: allow(self, 'GET', 'PUT', 'DELETE'),
      rules: allow(`${self}/rules`, 'GET'),
      ...toggle(d, self),
    };
  },
  authorization_server_policy_rule: (d, base, [authServerId, policyId]) => {
    const self = `${base}/api/v1/authorizationServers/${authServerId}/policies/${policyId}/rules/${String(d.id)}`;
    return { self: allow(self, 'GET', 'PUT', 'DELETE'), ...toggle(d, self) };
  },
  network_zone: (d, base) => {
    const self = `${base}/api/v1/zones/${String(d.id)}`;
    return { self: allow(self, 'GET', 'PUT', 'DELETE'), ...toggle(d, self) };
  },
  trusted_origin: (d, base) => {
    const self = `${base}/api/v1/trustedOrigins/${String(d.id)}`;
    return { ...toggle(d, self), self: allow(self, 'GET', 'PUT', 'DELETE') };
  },
};

/**
 * The object as the API returns it: recorded objects as they are, generated ones with the
 * `_links` Okta would send, pointing at this simulator (`base`), plus the entry's link paths
 * (an app's `accessPolicy`...). Group rules carry no links,
 * as in real responses. `parents` are the ids in the path (app id for an app user...).
 */
export function render(
  type: OktaResourceType,
  entry: Entry,
  base: string,
  parents: readonly string[] = [],
  view: View = 'item',
): Json {
  const links = generatedLinks(type, entry, base, parents, view);
  return links === undefined ? entry.data : { ...entry.data, _links: links };
}

/**
 * JSON text of {@link render}; recorded objects are sent exactly as they were recorded. The links
 * are appended to the object's own text rather than to a copy of the object: lists serialize
 * every object of a page, and the copy was a quarter of the work.
 */
export function serialize(
  type: OktaResourceType,
  entry: Entry,
  base: string,
  parents: readonly string[] = [],
  view: View = 'item',
): string {
  if (entry.raw !== undefined) return entry.raw;
  const links = generatedLinks(type, entry, base, parents, view);
  // An own `_links` member, even undefined, keeps its place in the copy: leave that to render.
  if (links !== undefined && '_links' in entry.data)
    return JSON.stringify(render(type, entry, base, parents, view));
  const data = JSON.stringify(entry.data);
  if (links === undefined) return data;
  return `${data === '{}' ? '{' : `${data.slice(0, -1)},`}"_links":${JSON.stringify(links)}}`;
}

const userListTexts = new WeakMap<Entry, { base: string; text: string }>();

/**
 * {@link serialize} of a user as lists show it, kept per entry: a backup reads each user from
 * `/api/v1/users` and again from the member list of each of its groups. Every write replaces a
 * user's entry (`replaced`, `OrgState.putUser`) instead of changing it, so a kept text is never
 * stale; it is kept with its `base`, since recorded entries may be shared by simulators.
 */
export function userListText(entry: Entry, base: string): string {
  const kept = userListTexts.get(entry);
  if (kept?.base === base) return kept.text;
  const text = serialize('user', entry, base, [], 'list');
  userListTexts.set(entry, { base, text });
  return text;
}

/** The `_links` the simulator generates for the entry, or undefined when it is served as stored. */
function generatedLinks(
  type: OktaResourceType,
  entry: Entry,
  base: string,
  parents: readonly string[],
  view: View,
): Record<string, unknown> | undefined {
  const build = LINKS[type];
  if ((!build && !entry.linkPaths) || entry.data._links !== undefined) return undefined;
  const links = build ? build(entry.data, base, parents, view) : {};
  for (const [rel, path] of Object.entries(entry.linkPaths ?? {})) links[rel] = href(`${base}${path}`);
  return links;
}
