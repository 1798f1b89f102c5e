import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ResourceCursors } from '@libs/providers/provider-connector.js';
import type { DeltaRound, EntraDeltaReader } from './entra-delta.js';
import { nativeRecoverySince } from './entra-native-recovery.js';
import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from './entra-resource-catalog.js';
import type { GraphApiClient } from './graph-api-client.js';

/** A type's delta link from its cursor, and when it was read (epoch ms). */
export type DeltaLink = { link: URL; since: number };

/**
 * Graph's hooks of the catalogue walk (EntraConnector.collect, deletedSince): the types' cursors
 * as delta links, the round of a link (or none when Graph lost its sync state), and whether a
 * native recovery since the cursors makes every delta part full (entra-native-recovery.ts).
 */
export class EntraDeltaCursors {
  /** The native recovery check of the cursors' earliest instant, made once (recoveredSince). */
  private recovery?: { since: number; recovered: Promise<boolean> };

  constructor(
    private readonly graph: GraphApiClient,
    private readonly deltas: EntraDeltaReader,
  ) {}

  /**
   * The delta link of each requested type with a cursor.
   * @throws ProviderError `invalid_cursor` for a cursor of a type without delta or not a delta
   *   link of its path on this tenant's Graph
   */
  linksOf(cursors: ResourceCursors, requested: ReadonlySet<string>): Map<EntraResourceType, DeltaLink> {
    const links = new Map<EntraResourceType, DeltaLink>();
    for (const [type, cursor] of Object.entries(cursors)) {
      if (!requested.has(type)) continue;
      const tracked = (ENTRA_RESOURCE_TYPES as readonly string[]).includes(type)
        ? deltaPathOf(type as EntraResourceType)
        : undefined;
      if (!tracked)
        throw new ProviderError(`Entra ID lists "${type}" in full: it takes no cursor`, 'invalid_cursor');
      links.set(type as EntraResourceType, this.deltas.linkOf(cursor, tracked.path));
    }
    return links;
  }

  /** Whether a native recovery ran since the earliest of `links`; asked once per connector (its collection and deletions share it). */
  recoveredSince(
    links: ReadonlyMap<EntraResourceType, { since: number }>,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const since = Math.min(...[...links.values()].map((link) => link.since));
    if (!this.recovery || this.recovery.since !== since) {
      const recovered = nativeRecoverySince(this.graph, since, signal);
      recovered.catch(() => {});
      this.recovery = { since, recovered };
    }
    return this.recovery.recovered;
  }

  /** The round of a type's link, or undefined when Graph lost its sync state (the part goes full). */
  async roundOrExpired(link: URL, signal?: AbortSignal): Promise<DeltaRound | undefined> {
    try {
      return await this.deltas.round(link, link.pathname, signal);
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'cursor_expired') return undefined;
      throw error;
    }
  }
}

/**
 * The delta function whose links are `type`'s cursors, and the type that owns it (a relationship
 * type's parent); undefined for a type always listed in full.
 */
export function deltaPathOf(type: EntraResourceType): { path: string; owner: EntraResourceType } | undefined {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  const owner = definition.deltaOf?.parent ?? type;
  const path = ENTRA_TYPE_DEFINITIONS[owner].delta;
  return path === undefined ? undefined : { path, owner };
}

/**
 * `part`'s records, its cursor set from `cursor` before the first record (the link is read before
 * the listing starts, so a change made while listing is fetched again next time, never missed).
 */
export async function* withCursorFirst<T>(
  part: { cursor?: string },
  records: AsyncIterable<T>,
  cursor: Promise<string>,
): AsyncIterable<T> {
  part.cursor = await cursor;
  yield* records;
}
