import { ProviderError } from '@libs/providers/provider-errors.js';

import type { GraphApiClient, GraphObject } from './graph-api-client.js';

/** A relationship change a delta round reported: `members@delta` of a group. */
export interface LinkChange {
  parentId: string;
  id: string;
  /** the linked object's type, `user` or `group` (its `@odata.type` without the namespace) */
  type: string;
  removed: boolean;
}

/**
 * What one delta round said since its link, folded per object: Graph may return an object more
 * than once in a round ("delta query overview"), so the last mention wins.
 */
export interface DeltaRound {
  /** ids of objects created, restored or with changed properties, in first-seen order */
  changed: string[];
  /** ids of objects removed (`@removed`: in the deleted items, or gone for good) */
  removed: string[];
  /** by relationship (`members`), its changes by `<parentId>:<id>` */
  links: Map<string, Map<string, LinkChange>>;
  /**
   * Where the next round starts: the round's `@odata.deltaLink` and when the round began
   * (`{ deltaLink, since }` as JSON), so a native recovery since then is found.
   */
  cursor: string;
}

/** Members of a delta entry that are not properties of the object. */
const NOT_PROPERTIES = new Set(['id', '@odata.type', '@removed']);

/**
 * Graph's delta queries for an Entra connector: the delta link a full backup starts from, read
 * before its listing with `$deltatoken=latest` (Entra resources support "sync from now": no
 * object, only a link; "delta query overview"), so a change made while listing is fetched again
 * next time rather than missed; and each round from a stored link, read once and kept for both
 * `deletedSince` and `collect` (the same link names the same round; a second read could see later
 * removals the first did not report). Updated objects come in a round with only their changed
 * properties ("at least the properties that have been updated"), so a round yields ids, and
 * callers read the objects whole.
 */
export class EntraDeltaReader {
  readonly #rounds = new Map<string, Promise<DeltaRound>>();
  readonly #latest = new Map<string, Promise<string>>();

  constructor(
    private readonly graph: GraphApiClient,
    private readonly graphOrigin: string,
  ) {}

  /**
   * The delta link a cursor holds and when it was read, checked to be a delta link of `path` on
   * this connector's Graph origin (the SSRF guard checks it again when it is followed).
   * @throws ProviderError `invalid_cursor`
   */
  linkOf(cursor: string, path: string): { link: URL; since: number } {
    let parsed: { deltaLink?: unknown; since?: unknown } | undefined;
    let url: URL | undefined;
    try {
      parsed = JSON.parse(cursor) as { deltaLink?: unknown; since?: unknown };
      url = new URL(String(parsed.deltaLink));
    } catch {
      url = undefined;
    }
    const since = typeof parsed?.since === 'string' ? Date.parse(parsed.since) : Number.NaN;
    if (url?.origin !== this.graphOrigin || url.pathname !== path || Number.isNaN(since))
      throw new ProviderError(`Not a delta link of ${path} from this tenant's Graph`, 'invalid_cursor');
    return { link: url, since };
  }

  /**
   * A cursor of `path` from now: a delta link, `select` kept in it, and when it was asked for;
   * read once per path and connector.
   */
  latest(path: string, select?: readonly string[], signal?: AbortSignal): Promise<string> {
    let cursor = this.#latest.get(path);
    if (!cursor) {
      const url = new URL(path, this.graphOrigin);
      url.searchParams.set('$deltatoken', 'latest');
      if (select) url.searchParams.set('$select', select.join(','));
      cursor = this.read(url, path, signal).then((round) => round.cursor);
      cursor.catch(() => {});
      this.#latest.set(path, cursor);
    }
    return cursor;
  }

  /**
   * The round from a delta link (a checked cursor), read to its end once per link and connector.
   * @throws ProviderError `cursor_expired` when Graph no longer has its sync state (410); what
   *   GraphApiClient.deltaPages throws
   */
  round(link: URL, path: string, signal?: AbortSignal): Promise<DeltaRound> {
    let round = this.#rounds.get(link.href);
    if (!round) {
      round = this.read(link, path, signal);
      round.catch(() => {});
      this.#rounds.set(link.href, round);
    }
    return round;
  }

  private async read(first: URL, template: string, signal?: AbortSignal): Promise<DeltaRound> {
    // A round's link covers what changed up to when it began: a cursor is never later than that.
    const since = new Date().toISOString();
    const state = new Map<string, 'changed' | 'removed' | 'links'>();
    const links = new Map<string, Map<string, LinkChange>>();
    for await (const page of this.graph.deltaPages(first, { template, signal })) {
      for (const entry of page.items) foldDeltaEntry(entry, { state, links });
      if (page.deltaLink !== null)
        return {
          changed: [...state].filter(([, kind]) => kind === 'changed').map(([id]) => id),
          removed: [...state].filter(([, kind]) => kind === 'removed').map(([id]) => id),
          links,
          cursor: JSON.stringify({ deltaLink: page.deltaLink, since }),
        };
    }
    throw new ProviderError(
      `Graph ended a round of ${template} without a delta link`,
      'provider_unreachable',
    );
  }
}

/** What a round has folded so far: each object's last state, and relationship changes. */
export interface RoundFold {
  state: Map<string, 'changed' | 'removed' | 'links'>;
  links: Map<string, Map<string, LinkChange>>;
}

/**
 * Folds one delta entry into the round: `@removed` marks the object removed; an entry with
 * properties marks it changed; one with only `<relationship>@delta` records the links (an object
 * already changed stays so); a later mention of an object or a link wins over an earlier one.
 */
export function foldDeltaEntry(entry: GraphObject, { state, links }: RoundFold): void {
  const id = String(entry.id);
  if (entry['@removed'] !== undefined) {
    state.set(id, 'removed');
    return;
  }
  let properties = false;
  for (const [name, value] of Object.entries(entry)) {
    if (NOT_PROPERTIES.has(name)) continue;
    if (!name.endsWith('@delta')) {
      properties = true;
      continue;
    }
    const relationship = name.slice(0, -'@delta'.length);
    let changes = links.get(relationship);
    if (!changes) links.set(relationship, (changes = new Map()));
    for (const linked of Array.isArray(value) ? (value as GraphObject[]) : []) {
      const linkedId = String(linked.id);
      changes.set(`${id}:${linkedId}`, {
        parentId: id,
        id: linkedId,
        type: String(linked['@odata.type'] ?? '').replace('#microsoft.graph.', ''),
        removed: linked['@removed'] !== undefined,
      });
    }
  }
  if (properties) state.set(id, 'changed');
  else if (!state.has(id)) state.set(id, 'links');
}
