import {
  type ChildEntry,
  type HookEntry,
  parentOf,
  type ParentRef,
  type SingleEntry,
  type TopLevelEntry,
} from '@libs/providers/kit/resource-catalog.js';
import type { EntraResourceType } from './entra-resource-types.js';
import type { GraphObject } from './graph-object.js';

/**
 * The kit's catalogue vocabulary (kit/resource-catalog.ts) for Entra ID's types and Graph's
 * objects: Graph's tenant lists (`top`), singletons (`single`) and lists read under each parent
 * object (`child`), each with what a Graph read declares besides (`GraphReadFields`), and Entra's
 * one hook, objects embedded in their parent's answer (`embedded`). The collector is
 * entra-collector.ts.
 */

/** What a Graph read of a type declares besides the kit's vocabulary. */
export interface GraphReadFields {
  /**
   * The path template, also the stats and rate-limit key (`/v1.0/groups/{id}/members`); `{id}`
   * is each parent object's id.
   */
  template: string;
  /**
   * The least privileged application permission that reads it, from the "Permissions" table of
   * the operation's Graph API reference page (the page is named in docs/resource-types.md).
   */
  permission: string;
  /** `$select` to send: the properties a backup keeps when the default set is smaller (users). */
  select?: readonly string[];
  /**
   * Whether the list takes `$top=999` (its reference page lists `$top`, and it holds enough
   * objects to page); other lists are read in Graph's default pages.
   */
  top?: boolean;
  /**
   * A child that is a link to a directory object (members, owners): the record is
   * `{ <parentKey>, <key>Id, <key>Type }` (`{ groupId, memberId, memberType }`), the type from the
   * object's `@odata.type`, and only ids are selected.
   */
  link?: { parentKey: string; key: string };
  /**
   * Graph's delta function of the type (`GET /v1.0/users/delta`, the v1.0 CSDL's bound `delta`),
   * when it has one: an incremental backup reads what changed since the base's delta link
   * (entra-delta.ts), sending the type's `select`. Types without one are listed in full every time.
   */
  delta?: string;
  /**
   * The type is a relationship its parent's delta reports (`members@delta` of `group: delta`):
   * its changes come with the parent's rounds, from the same delta link.
   */
  deltaOf?: { parent: EntraResourceType; relationship: string };
  /** The delta function's permission, when its reference page names another than the list's. */
  deltaPermission?: string;
}

/**
 * A Graph collection of the tenant (`/v1.0/users`); `key` when the record id is not `id`.
 * `sharedWith`: another type listing the same collection, whose listing gives this type's records
 * too when both are collected whole (entra-shared-listing.ts), instead of a listing of its own.
 */
export type EntraTopDefinition = TopLevelEntry<GraphObject> &
  GraphReadFields & { sharedWith?: EntraResourceType };

/** A Graph singleton (`/v1.0/policies/authorizationPolicy`); record id its `id`, else `id`. */
export type EntraSingleDefinition = SingleEntry<GraphObject> & GraphReadFields;

/**
 * A Graph list read under each object of `parent` (`params` gives `{id}`), or with `object` the
 * one object there (an organization's branding). `emptyOn`: the statuses that mean none, for an
 * object (404: branding never configured); Graph's child lists declare none, any failure fails
 * the part.
 */
export type EntraChildDefinition = ChildEntry<EntraResourceType, GraphObject> &
  GraphReadFields & { object?: true };

/**
 * Objects Graph returns inline in each `parent` object's answer, under its `member` (the
 * authentication methods policy's method configurations): records of their own, read without a
 * request, that the parent's record leaves out. `template` is each object's own path.
 */
export type EntraEmbeddedDefinition = HookEntry<'embedded', GraphObject> &
  GraphReadFields & { parent: EntraResourceType; member: string };

/**
 * Values of directory extensions on each object of `template` (users): Graph returns an
 * extension's value only when its name is in `$select` ("Add custom data to resources using
 * extensions", https://learn.microsoft.com/graph/extensibility-overview#directory-microsoft-entra-extensions),
 * so the names come from the extension definitions (`definitions`, extensionProperty objects)
 * read earlier in the same backup, those whose `targetObjects` hold `target`. A record per object:
 * its `id` and the extensions it has a value of.
 */
export type EntraExtensionValuesDefinition = HookEntry<'extension_values', GraphObject> &
  GraphReadFields & { definitions: EntraResourceType; target: string };

/**
 * How an Entra ID type is read: a kind the kit's vocabulary names, or Entra's hooks (`embedded`,
 * `extension_values`).
 */
export type EntraTypeDefinition =
  | EntraTopDefinition
  | EntraSingleDefinition
  | EntraChildDefinition
  | EntraEmbeddedDefinition
  | EntraExtensionValuesDefinition;

/** The parent type of a definition read under one. */
export const entraParentOf = (definition: EntraTypeDefinition): EntraResourceType | undefined =>
  definition.kind === 'extension_values'
    ? undefined
    : parentOf<EntraResourceType, GraphObject, EntraEmbeddedDefinition>(definition);

/** A parent object as a child's `params` take it (kit ParentRef): its Graph id. */
export const parentRef = (object: GraphObject): ParentRef => ({ id: String(object.id), keys: {} });

/** A child's path parameters: `{id}` is its parent object's. */
export const underParent = ({ id }: ParentRef): Record<string, string> => ({ id });
