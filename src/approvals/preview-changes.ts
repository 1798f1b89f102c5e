import type { Operation } from 'fast-json-patch';
import { recordPatch } from '@libs/diff/record-patch.js';

/** The parts of a restore's dry run (GET /api/restore) that say what it would do. */
interface PreviewShape {
  preview?: ReadonlyArray<{ resourceType: string }>;
  prune?: ReadonlyArray<{ resourceType: string; id: string }>;
  /** an undo's dry run (GET /api/restore/undo): each change it would reverse */
  changes?: ReadonlyArray<{ resourceType: string; id: string; action: string }>;
  /** a restore into another org's dry run: each object and what the restore would do to it there */
  crossOrg?: {
    objects?: ReadonlyArray<{ resourceType: string; sourceId: string | null; targetId: string | null }>;
    cannotMove?: ReadonlyArray<{ resourceType: string; kind: string; why: string }>;
  };
}

/** Fields of a dry run that change every time it is read, not with the org. */
const READ_AT = new Set(['collectedAt', 'notes']);

/**
 * A dry run keyed so that a patch names what changed: `/rows/<type>/<count>`,
 * `/prune/<type>:<id>/<field>`, an undo's `/undo/<action>:<type>:<id>/<field>`, and into another
 * org `/crossOrg/<type>:<sourceId>/<field>` (`target:<targetId>` for the target's own objects) and
 * `/cannotMove/<type>:<kind>/<field>`.
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
    ...(preview.crossOrg && {
      crossOrg: Object.fromEntries(
        (preview.crossOrg.objects ?? []).map(({ resourceType, sourceId, ...object }) => [
          `${resourceType}:${sourceId ?? `target:${object.targetId}`}`,
          object,
        ]),
      ),
      cannotMove: Object.fromEntries(
        (preview.crossOrg.cannotMove ?? []).map(({ resourceType, kind, ...entry }) => [
          `${resourceType}:${kind}`,
          entry,
        ]),
      ),
    }),
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
