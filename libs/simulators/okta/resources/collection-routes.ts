import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed, type OktaError } from '@libs/simulators/okta/http/okta-error.js';
import { empty, json, jsonText, type Reply } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import type { FilterRules } from '@libs/simulators/okta/query/filter-expression.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import type { PageLimits } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import type { OrderedCollection } from '@libs/simulators/okta/store/ordered-collection.js';
import { objectTarget, recordEvent } from './audit.js';
import { serialize } from './links.js';
import { listFilter } from './list-filter.js';

/** How activate/deactivate answer: Okta varies by API (see each path's 2xx in the OpenAPI). */
export type LifecycleReply = 'no-content' | 'empty-object' | 'object';

/** The writes a resource records in the System Log. */
export type AuditedWrite = 'create' | 'update' | 'delete' | 'activate' | 'deactivate';

/**
 * A collection of Okta objects served with the usual verbs: list, get, create, replace
 * (PUT, or POST where the API updates that way), delete and, when `lifecycle` is set,
 * `lifecycle/activate|deactivate`. Every write sets `lastUpdated` (where the object has one)
 * and may append a System Log event (`audit`).
 */
export interface CollectionResource {
  type: OktaResourceType;
  /** Okta's class name in 404 summaries, e.g. `AppInstance` in "Resource not found: id (AppInstance)". */
  kindName: string;
  /** List path template, e.g. `/api/v1/authorizationServers/{authServerId}/scopes`. */
  path: string;
  /** Name of the id parameter in item paths, as in the OpenAPI (`scopeId`). */
  idParam: string;
  idPrefix: string;
  /** Scope family guarding the resource, e.g. `okta.authorizationServers`. */
  scopeFamily: string;
  limits: PageLimits;
  /** Query parameters the list understands, in Okta's link order; `filter`/`search`/`q` are applied. */
  listParams?: readonly string[];
  /** Properties `q` matches by prefix (default `name`). */
  qFields?: readonly string[];
  /** The collection under the path's parent ids; throws 404 when a parent is missing. */
  collection(org: OrgContext, params: Record<string, string>): OrderedCollection<Entry>;
  /** The parent ids in path order (for links), e.g. `[authServerId]`. */
  parents?(params: Record<string, string>): string[];
  /** Extra list restriction from the query (e.g. policies by `type`); may throw a 400. */
  listScope?(url: URL): ((data: Json) => boolean) | undefined;
  /**
   * Validates a creation body (throwing Okta's 400) and returns the server-set fields of the new
   * object beyond id/created/lastUpdated (status, system flags, defaults Okta fills in).
   */
  defaults?(
    body: Json,
    context: { org: OrgContext; params: Record<string, string>; id: string; url: URL },
  ): Json;
  /**
   * The key of a new object when the client names it (a group owner is the user's id, a linked
   * object its `primary.name`); default: a new id with `idPrefix`, stored as `id`.
   */
  keyFromBody?(body: Json): string;
  /** Links of a new object that depend on the org's state (a user type's `schema`). */
  linkPaths?(data: Json, org: OrgContext): Record<string, string>;
  /**
   * The body as stored: without write-only values Okta never answers (hook secrets) or request
   * fields that are not properties of the object (a custom role's `permissions`). `defaults`
   * still sees them.
   */
  stored?(body: Json): Json;
  /** Where the key lives when it is not `id` (`name` for features, `label` for permissions). */
  keyProperty?: string;
  /** Server timestamps set on create (default both); updates set `lastUpdated` when listed. */
  stamps?: ReadonlyArray<'created' | 'lastUpdated'>;
  /** `search` is a plain keyword matched against these properties (group rules), not an expression. */
  keywordSearch?: readonly string[];
  /** The properties and operators `filter` accepts, when the endpoint documents a subset. */
  filterRules?: FilterRules;
  /** The list is `{ [wrap]: [...], _links }` (IAM APIs) instead of an array. */
  wrap?: string;
  /** A creation may come without a body (a new client secret). */
  optionalBody?: true;
  /** `status` is written in the body (claims: no lifecycle operations), not only read. */
  statusInBody?: true;
  /** Creation answer status (200 for most Okta APIs, 201 for authorization server children). */
  createStatus: number;
  /** Verbs that replace an object (default PUT); some APIs also or only take POST. */
  updateMethods?: ReadonlyArray<'PUT' | 'POST'>;
  /**
   * PUT replaces the object, as Okta's replace operations do (a member left out is cleared:
   * recorded zone and hook replacements answer it null or empty): only the fields the server
   * owns and these survive from the current object. Without it, PUT merges the body in.
   */
  replaceKeeps?: readonly string[];
  /**
   * The replaced object with what Okta keeps whatever the body says (an OIDC app's `client_id`,
   * fixed at creation), given the object before the replace.
   */
  keepOnReplace?(before: Json, replaced: Json): Json;
  /** Refuses a change (e.g. an ACTIVE group rule) with Okta's error. */
  guardReplace?(current: Json): OktaError | undefined;
  /** Refuses a deletion (e.g. an ACTIVE app) with Okta's error. */
  guardDelete?(current: Json): OktaError | undefined;
  /** Removes what hangs off the deleted object (rules of a policy...), given its last `data`. */
  cascadeDelete?(org: OrgContext, id: string, params: Record<string, string>, deleted: Json): void;
  /**
   * Moves the object's siblings after it was created or replaced (Okta renumbers policy
   * priorities); the answer shows the object as it ends up.
   */
  arrange?(org: OrgContext, id: string, params: Record<string, string>): void;
  deleteStatus: 202 | 204;
  lifecycle?: LifecycleReply;
  /** System Log event type of each write, and the target type (`AppInstance`, `PolicyEntity`). */
  audit?: { target: string; events: Partial<Record<AuditedWrite, string>> };
}

/** Fields a client cannot set: the server owns them. */
const READ_ONLY = ['id', 'created', 'lastUpdated', 'status', '_links', '_embedded'];

/** Routes for one collection resource (see {@link CollectionResource}). */
export function collectionRoutes(resource: CollectionResource, org: OrgContext): Route[] {
  const item = `${resource.path}/{${resource.idParam}}`;
  const read = { kind: 'admin', scopes: readScopes(resource.scopeFamily) } as const;
  const write = { kind: 'admin', scopes: manageScopes(resource.scopeFamily) } as const;
  const keyProperty = resource.keyProperty ?? 'id';
  const stored = (body: Json) => resource.stored?.(body) ?? body;
  const stamps = resource.stamps ?? ['created', 'lastUpdated'];
  const parentsOf = (params: Record<string, string>) => resource.parents?.(params) ?? [];
  const text = (entry: Entry, params: Record<string, string>) =>
    serialize(resource.type, entry, org.baseUrl, parentsOf(params));
  const existing = (context: RequestContext): Entry => {
    const id = context.params[resource.idParam];
    const entry = resource.collection(org, context.params).get(id);
    if (!entry) throw notFound(id, resource.kindName);
    return entry;
  };
  const audit = (write: AuditedWrite, data: Json) => {
    const eventType = resource.audit?.events[write];
    if (eventType && resource.audit)
      recordEvent(org, eventType, `${write} ${resource.kindName}`, [
        objectTarget(resource.audit.target, data),
      ]);
  };
  const updated = (current: Entry, changes: Json): Entry => {
    const { _links: _ignored, ...kept } = current.data;
    const stamp = stamps.includes('lastUpdated') ? { lastUpdated: oktaTimestamp(org.now()) } : {};
    return replaced(current, { ...kept, ...changes, ...stamp });
  };

  const replace = (context: RequestContext) => {
    const current = existing(context);
    const refusal = resource.guardReplace?.(current.data);
    if (refusal) throw refusal;
    const changes = stored(withoutReadOnly(jsonBody(context), resource.statusInBody));
    delete changes[keyProperty];
    const id = context.params[resource.idParam];
    const collection = resource.collection(org, context.params);
    const base =
      resource.replaceKeeps && context.method === 'PUT'
        ? { ...current, data: pick(current.data, [...READ_ONLY, keyProperty, ...resource.replaceKeeps]) }
        : current;
    const next = updated(base, changes);
    collection.set(
      id,
      resource.keepOnReplace ? replaced(next, resource.keepOnReplace(current.data, next.data)) : next,
    );
    resource.arrange?.(org, id, context.params);
    const entry = collection.get(id) as Entry;
    audit('update', entry.data);
    return jsonText(200, text(entry, context.params));
  };

  const routes: Route[] = [
    {
      method: 'GET',
      template: resource.path,
      access: read,
      handle: (context) => {
        const scope = resource.listScope?.(context.url);
        const filter = listFilter(context.url, resource.qFields, {
          keywordSearch: resource.keywordSearch,
          filterRules: resource.filterRules,
        });
        const accept =
          scope || filter
            ? (e: Entry) => (!scope || scope(e.data)) && (!filter || filter(e.data))
            : undefined;
        return listReply(context, org.baseUrl, resource.collection(org, context.params), {
          limits: resource.limits,
          params: resource.listParams ?? [],
          accept,
          serialize: (e) => text(e, context.params),
          wrap: resource.wrap,
        });
      },
    },
    {
      method: 'POST',
      template: resource.path,
      access: write,
      handle: (context) => {
        const collection = resource.collection(org, context.params);
        const raw = resource.optionalBody && context.bodyText.trim() === '' ? {} : jsonBody(context);
        const body = withoutReadOnly(raw, resource.statusInBody);
        const now = oktaTimestamp(org.now());
        const key = resource.keyFromBody?.(raw) ?? oktaId(resource.idPrefix);
        const fields = resource.defaults?.(body, { org, params: context.params, id: key, url: context.url });
        const data: Json = {
          ...(keyProperty === 'id' ? { id: key } : {}),
          ...stored(body),
          ...fields,
          ...(stamps.includes('created') ? { created: now } : {}),
          ...(stamps.includes('lastUpdated') ? { lastUpdated: now } : {}),
        };
        if (resource.keyFromBody && collection.has(key))
          throw validationFailed(keyProperty, `${keyProperty}: An object with this field already exists`);
        const linkPaths = resource.linkPaths?.(data, org);
        const entry: Entry = linkPaths ? { data, linkPaths } : { data };
        collection.set(key, entry);
        resource.arrange?.(org, key, context.params);
        audit('create', data);
        return jsonText(resource.createStatus, text(collection.get(key) as Entry, context.params));
      },
    },
    {
      method: 'GET',
      template: item,
      access: read,
      handle: (context) => jsonText(200, text(existing(context), context.params)),
    },
    ...(resource.updateMethods ?? ['PUT']).map((method): Route => ({
      method,
      template: item,
      access: write,
      handle: replace,
    })),
    {
      method: 'DELETE',
      template: item,
      access: write,
      handle: (context) => {
        const current = existing(context);
        const refusal = resource.guardDelete?.(current.data);
        if (refusal) throw refusal;
        const id = context.params[resource.idParam];
        resource.collection(org, context.params).delete(id);
        resource.cascadeDelete?.(org, id, context.params, current.data);
        audit('delete', current.data);
        return empty(resource.deleteStatus);
      },
    },
  ];
  if (resource.lifecycle) {
    for (const [operation, status] of [
      ['activate', 'ACTIVE'],
      ['deactivate', 'INACTIVE'],
    ] as const) {
      routes.push({
        method: 'POST',
        template: `${item}/lifecycle/${operation}`,
        access: write,
        handle: (context) => {
          const entry = updated(existing(context), { status });
          resource.collection(org, context.params).set(context.params[resource.idParam], entry);
          audit(operation, entry.data);
          return lifecycleReply(resource.lifecycle ?? 'no-content', () => text(entry, context.params));
        },
      });
    }
  }
  return routes;
}

function lifecycleReply(style: LifecycleReply, body: () => string): Reply {
  if (style === 'no-content') return empty(204);
  if (style === 'empty-object') return json(200, {});
  return jsonText(200, body());
}

function pick(data: Json, fields: readonly string[]): Json {
  return Object.fromEntries(
    fields.filter((field) => data[field] !== undefined).map((field) => [field, data[field]]),
  );
}

function withoutReadOnly(body: Json, statusInBody?: true): Json {
  const copy = { ...body };
  for (const key of READ_ONLY) if (key !== 'status' || !statusInBody) delete copy[key];
  return copy;
}
