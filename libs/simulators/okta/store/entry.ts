/** A JSON object as Okta sends it. */
export type Json = Record<string, unknown>;

/**
 * One stored Okta object. `data` is the object without the `_links` this simulator generates
 * (those depend on the base URL and are added when rendering); objects seeded from recorded
 * traffic keep their own `_links` in `data` and their recorded text in `raw`, so that they are
 * served byte-for-byte until something modifies them.
 */
export interface Entry {
  data: Json;
  raw?: string;
  /**
   * Links that depend on the org's state rather than the object itself (an app's
   * `accessPolicy`, a user type's `schema`): relation -> path, rendered as `{ href: base + path }`.
   */
  linkPaths?: Readonly<Record<string, string>>;
}

/** A new entry holding `data`, keeping recorded `_links` and the link paths of `previous`. */
export function replaced(previous: Entry, data: Json): Entry {
  const links = previous.data._links;
  return {
    data: links === undefined ? data : { ...data, _links: links },
    ...(previous.linkPaths ? { linkPaths: previous.linkPaths } : {}),
  };
}
