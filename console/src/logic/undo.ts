import type { Schemas } from '../api/client';

type UndoChange = Schemas['UndoChange'];
type UndoAction = UndoChange['action'];

/** The order an undo's dry run is read in: what it puts back, re-creates, then deletes. */
export const UNDO_ACTIONS: readonly UndoAction[] = ['put_back', 'recreate', 'delete'];

/**
 * An undo's dry run (docs/restore.md "Undo since a clean backup") grouped by action, in
 * UNDO_ACTIONS order, each group's changes by type then name; empty groups left out.
 */
export function groupUndoChanges(
  changes: readonly UndoChange[],
): Array<{ action: UndoAction; changes: UndoChange[] }> {
  return UNDO_ACTIONS.map((action) => ({
    action,
    changes: changes
      .filter((change) => change.action === action)
      .sort(
        (a, b) =>
          a.resourceType.localeCompare(b.resourceType) || (a.name ?? a.id).localeCompare(b.name ?? b.id),
      ),
  })).filter((group) => group.changes.length > 0);
}

/**
 * The actors an undo's dry run names, once each, by display name: the choices of its actor
 * filter (the value is the provider's actor id, `changedBy.id`, as the API's `actor` takes it).
 */
export function undoActors(changes: readonly UndoChange[]): Array<{ value: string; label: string }> {
  const actors = new Map<string, string>();
  for (const change of changes)
    if (change.changedBy && !change.byThisService) {
      const { id, displayName, alternateId } = change.changedBy;
      actors.set(
        id,
        alternateId && alternateId !== displayName ? `${displayName} (${alternateId})` : displayName,
      );
    }
  return [...actors]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
