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
      actors.set(id, alternateId && alternateId !== displayName ? `${displayName} (${alternateId})` : displayName);
    }
  return [...actors].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
}

/** The restore screen's mapping form: each field as typed, blank when unused. */
export interface MappingForm {
  domainFrom: string;
  domainTo: string;
  hostFrom: string;
  hostTo: string;
  groupPrefix: string;
  groupSuffix: string;
}

export const EMPTY_MAPPING: MappingForm = {
  domainFrom: '',
  domainTo: '',
  hostFrom: '',
  hostTo: '',
  groupPrefix: '',
  groupSuffix: '',
};

/**
 * The API's `mapping` (docs/restore.md "Into another org") from the form: a domain or host
 * rewrite only when both sides are given (trimmed), a group name prefix/suffix as typed (their
 * spaces matter: "Sandbox - "), empty parts left out; undefined when nothing is mapped.
 */
export function crossOrgMapping(form: MappingForm): Schemas['CrossOrgMapping'] | undefined {
  const pair = (from: string, to: string) =>
    from.trim() && to.trim() ? [{ from: from.trim(), to: to.trim() }] : undefined;
  const domains = pair(form.domainFrom, form.domainTo);
  const hosts = pair(form.hostFrom, form.hostTo);
  const groupName = {
    ...(form.groupPrefix ? { prefix: form.groupPrefix } : {}),
    ...(form.groupSuffix ? { suffix: form.groupSuffix } : {}),
  };
  const mapping = {
    ...(domains ? { domains } : {}),
    ...(hosts ? { hosts } : {}),
    ...(Object.keys(groupName).length ? { groupName } : {}),
  };
  return Object.keys(mapping).length ? mapping : undefined;
}
