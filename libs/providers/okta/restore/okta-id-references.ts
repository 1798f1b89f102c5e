import type { IdMap } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/providers/resource-types.js';

/**
 * Okta object ids: 20 characters of [0-9A-Za-z] (`00g1a2b3c4d5e6f7g8h9`), found wherever they
 * stand in a string: alone, in record ids `<groupId>:<userId>`, in expression language
 * (`isMemberOfAnyGroup("00g...")`) or in ORNs (`orn:okta:directory:00o...:groups:00g...`).
 * Random 20-character ids do not collide with other text in practice, so replacing the ids an
 * IdMap holds, wherever they appear, rewrites every reference without knowing each field.
 */
const OKTA_ID = /(?<![0-9A-Za-z])[0-9A-Za-z]{20}(?![0-9A-Za-z])/g;

/** `text` with every Okta id that `ids` maps replaced by its new id. */
export function rewriteIds(text: string, ids: IdMap): string {
  if (ids.size === 0) return text;
  return text.replace(OKTA_ID, (id) => ids.get(id) ?? id);
}

/**
 * The record with every mapped Okta id replaced, in its record id and anywhere in its data
 * (keys included: a policy's `conditions` may be keyed by id). Returns the same object when
 * nothing changed.
 */
export function rewriteRecord(record: ResourceRecord, ids: IdMap): ResourceRecord {
  if (ids.size === 0) return record;
  const text = JSON.stringify(record.data);
  const data = rewriteIds(text, ids);
  const id = rewriteIds(record.id, ids);
  if (data === text && id === record.id) return record;
  return { ...record, id, data: data === text ? record.data : (JSON.parse(data) as ResourceRecord['data']) };
}

/** Every Okta id in the record's data, once each, in order of appearance. */
export function referencedIds(data: unknown): string[] {
  return [...new Set(JSON.stringify(data).match(OKTA_ID) ?? [])];
}
