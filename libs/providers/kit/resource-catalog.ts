/**
 * The vocabulary of a provider's resource catalogue: one entry per resource type saying how it is
 * listed (an endpoint template and its query, a page's items key), what it hangs under (`parent`,
 * whose objects give the path parameters), what children need from it (`remember`), and whether
 * it can be listed by change (`incremental`). A collector walks the catalogue in the provider's
 * dependency order (catalog-collector.ts); what no entry kind says is a provider's hook (`kind`
 * of a HookEntry), collected by the provider's own code.
 *
 * `Type` is the provider's resource type names; `Obj` its objects as the API answers them.
 */

/**
 * A parent record as its children need it: the record id (`<id>` or `<parentId>:<id>`) and
 * values taken from the parent object by its entry's `remember` (a schema id from a link, an
 * app's sign-on mode...).
 */
export interface ParentRef {
  id: string;
  keys: Readonly<Record<string, string>>;
}

/** A record's human label from its object; null when it has none. */
export type Namer<Obj> = (object: Obj) => string | null;

/** Collection of a type whose records can be fetched as changes since an instant. */
export interface Incremental {
  /**
   * Top-level types: the timestamp properties of a change; the listing is
   * `filter=<a> gt "<since>" or <b> gt "<since>"`.
   */
  fields?: readonly string[];
  /**
   * Child types: the parent's timestamp property; only parents with `<field> gt "<since>"`
   * have their children listed (in full), and the part says which (`children_of`).
   */
  parentField?: string;
}

/** Shared by list entries. */
interface Listing<Obj> {
  template: string;
  query?: Record<string, string | number>;
  /** The list is `{ [itemsKey]: [...] }` paged through `_links.next` (Okta's IAM APIs). */
  itemsKey?: string;
  name: Namer<Obj>;
  /** The object's own key when it is not `id` (linked objects: `primary.name`). */
  key?: Namer<Obj>;
  /** Values children need from this object, kept with its id while it streams. */
  remember?: (object: Obj) => Record<string, string>;
  incremental?: Incremental;
}

/** A type listed at one endpoint of the tenant. */
export interface TopLevelEntry<Obj> extends Listing<Obj> {
  kind: 'top';
  /** Each listed item is a summary: the record is `GET detail` with `{param}` = its id. */
  detail?: { template: string; param: string };
}

/** A type that is one object of the tenant (`GET /api/v1/meta/schemas/group/default`). */
export interface SingleEntry<Obj> {
  kind: 'single';
  template: string;
  /** The record id (when `key` gives none). */
  id: string;
  /** The object's own key, when it answers one (Graph's policies carry an `id`). */
  key?: Namer<Obj>;
  name: Namer<Obj>;
}

/**
 * A type listed under each object of a parent type. The record id is `<parentRecordId>:<key>`
 * (resource-types.ts), the parent record id giving the path parameters.
 */
export interface ChildEntry<Type extends string, Obj> extends Omit<Listing<Obj>, 'template'> {
  kind: 'child';
  parent: Type;
  /** The list endpoint; chosen per parent where it depends on it (a role assignment's targets). */
  template: string | ((parent: ParentRef) => string);
  /** Path parameters from the parent. */
  params: (parent: ParentRef) => Record<string, string>;
  /** Parents that have none of these children are skipped without a request. */
  applies?: (parent: ParentRef) => boolean;
  /** Statuses meaning "no children here" (default 404: parent deleted since it was listed). */
  emptyOn?: readonly number[];
  /** The record's data when it is not the object itself; `childId` is the object's key. */
  data?: (parent: ParentRef, childId: string) => Record<string, unknown>;
}

/**
 * A type made of fixed objects under each parent, each at its own endpoint (a brand's sign-in
 * and error pages, an app's user schema). The record id is `<parentRecordId>:<key>`; an object
 * answering one of `emptyOn` (404: never customized, or parent gone) has no record.
 */
export interface ChildObjectsEntry<Type extends string, Obj> {
  kind: 'child_objects';
  parent: Type;
  objects: ReadonlyArray<{ key: string; template: string }>;
  params: (parent: ParentRef) => Record<string, string>;
  applies?: (parent: ParentRef) => boolean;
  emptyOn?: readonly number[];
  name: Namer<Obj>;
}

/**
 * A type read from a parent's remembered values, without a request of its own (the sign-on
 * policy an app links to).
 */
export interface DerivedEntry<Type extends string> {
  kind: 'derived';
  parent: Type;
  /** The child's key and data, or null when the parent has none. */
  derive: (parent: ParentRef) => { key: string; data: Record<string, unknown> } | null;
}

/**
 * A type with collection rules of its own, named by `kind` and collected by the provider's hook
 * of that name (Okta's two user queries, one query per policy type, admins' roles).
 */
export interface HookEntry<Kind extends string, Obj> {
  kind: Kind;
  name: Namer<Obj>;
  /** Values children need from each object. */
  remember?: (object: Obj) => Record<string, string>;
  incremental?: Incremental;
}

/** One catalogue entry: a kind the collector walks, or one of the provider's hooks. */
export type CatalogEntry<Type extends string, Obj, Hook extends HookEntry<string, Obj> = never> =
  | TopLevelEntry<Obj>
  | SingleEntry<Obj>
  | ChildEntry<Type, Obj>
  | ChildObjectsEntry<Type, Obj>
  | DerivedEntry<Type>
  | Hook;

/** The parent type of an entry that has one. */
export function parentOf<Type extends string, Obj, Hook extends HookEntry<string, Obj>>(
  entry: CatalogEntry<Type, Obj, Hook>,
): Type | undefined {
  return 'parent' in entry ? entry.parent : undefined;
}

/**
 * The label at `path` of an object (`field('profile', 'login')`), when it is a string.
 */
export function field<Obj = Record<string, unknown>>(...path: string[]): Namer<Obj> {
  return (object) => {
    let value: unknown = object;
    for (const key of path) value = (value as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' ? value : null;
  };
}

/**
 * The label of a record that has none: memberships and assignments are links between two records
 * that carry the labels; a label of their own would change with the user's login while the link
 * does not.
 */
export const noName = (): null => null;
