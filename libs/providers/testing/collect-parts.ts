import type { CollectOptions, PartDelta, ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/** One collected part, read whole. */
export interface CollectedPart {
  delta?: PartDelta;
  records: ResourceRecord[];
  cursor?: string;
}

/**
 * For specs: every part `connector.collect(options)` yields, read one after another, keyed by type
 * in the order yielded.
 */
export async function collectParts(
  connector: ProviderConnector,
  options: CollectOptions = {},
): Promise<Map<string, CollectedPart>> {
  const parts = new Map<string, CollectedPart>();
  for await (const part of connector.collect(options)) {
    const records: ResourceRecord[] = [];
    for await (const record of part.records) records.push(record);
    parts.set(part.type, { delta: part.delta, records, ...(part.cursor ? { cursor: part.cursor } : {}) });
  }
  return parts;
}

/** For specs: the records of each part, by type (collectParts without the deltas). */
export async function collectRecords(
  connector: ProviderConnector,
  options: CollectOptions = {},
): Promise<Map<string, ResourceRecord[]>> {
  const parts = await collectParts(connector, options);
  return new Map([...parts].map(([type, part]) => [type, part.records]));
}

/** For specs: the cursors of collected parts, by type (what a snapshot stores for the next incremental). */
export function cursorsOf(parts: Map<string, CollectedPart>): Record<string, string> {
  return Object.fromEntries(
    [...parts].flatMap(([type, part]) => (part.cursor === undefined ? [] : [[type, part.cursor]])),
  );
}
