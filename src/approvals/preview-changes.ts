import type { Operation } from 'fast-json-patch';
import { recordPatch } from '@libs/diff/record-patch.js';

/** The parts of a restore's dry run (GET /api/restore) that say what it would do. */
interface PreviewShape {
  preview?: ReadonlyArray<{ resourceType: string }>;
  prune?: ReadonlyArray<{ resourceType: string; id: string }>;
  /** an undo's dry run (GET /api/restore/undo): each change it would reverse */
  changes?: ReadonlyArray<{ resourceType: string; id: string; action: string }>;
}

/** Fields of a dry run that change every time it is read, not with the org. */
const READ_AT = new Set(['collectedAt', 'notes']);

/**
 * A dry run keyed so that a patch names what changed: `/rows/<type>/<count>`,
 * `/prune/<type>:<id>/<field>`, and an undo's `/undo/<action>:<type>:<id>/<field>`.
 */
function keyed(preview: PreviewShape): Record<string, unknown> {
  return {
    rows: Object.fromEntries((preview.preview ?? []).map(({ resourceType, ...row }) => [resourceType, row])),
    prune: Object.fromEntries(
      (preview.prune ?? []).map(({ resourceType, id, ...candidate }) => [`${resourceType}:${id}`, candidate]),
    ),
    undo: Object.fromEntries(
      (preview.changes ?? []).map(({ resourceType, id, action, ...change }) => [
        `${action}:${resourceType}:${id}`,
        change,
      ]),
    ),
  };
}

/**
 * What changed between the dry run a requester saw and the one read at approval time
 * (docs/approvals.md), as RFC 6902 JSON Patch operations from the diff engine
 * (`libs/diff/record-patch.ts`: each `replace` and `remove` preceded by a `test` of the earlier
 * value). Empty when the live org would be restored the same way.
 * @param before, after bodies of GET /api/restore (`preview` rows, `prune` candidates) or of
 *   GET /api/restore/undo (`changes`)
 */
export function previewChanges(before: PreviewShape, after: PreviewShape): Operation[] {
  // Rows and candidates carry more fields than PreviewShape names; all of them are compared.
  return recordPatch(keyed(before), keyed(after), READ_AT);
}
