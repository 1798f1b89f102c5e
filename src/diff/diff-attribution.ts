import type { AttributionFilter, AttributionIndex, ChangeAttributed } from '@libs/diff/change-attribution.js';
import type { ResourceChange } from './snapshot-diff.js';

/** A change between two backups with who made it (docs/diff.md "Who changed it"). */
export type AttributedChange = ResourceChange & ChangeAttributed;

/**
 * Each change with its attribution from `index` (the period between the two backups), keeping
 * only those that pass `filter` (by actor, in a window); order kept.
 */
export function attributeChanges(
  changes: readonly ResourceChange[],
  index: AttributionIndex,
  filter: AttributionFilter,
): AttributedChange[] {
  const attributed: AttributedChange[] = [];
  for (const change of changes) {
    const by = index.attributionOf(change.resourceType, change.resource.id, filter);
    if (by) attributed.push({ ...change, ...by });
  }
  return attributed;
}
