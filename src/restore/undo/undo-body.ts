import { ValidationError } from '@app/common/errors.js';
import type { RestoreUndoFilter } from '@app/restore/restore.entity.js';
import type { RunRestoreDto } from '@app/restore/dto/run-restore.dto.js';
import { pointerTokens, type UndoField } from '@libs/restore/field-revert.js';

/**
 * The rules of POST /api/restore's undo fields (docs/restore.md "Undo since a clean backup"):
 * `actor`, `since` and `until` filter an undo only; an undo prunes exactly the objects added since
 * the backup, so `prune` is refused with it; `since` is not after `until`.
 * @throws ValidationError naming the field
 */
export function checkUndoBody(body: RunRestoreDto): void {
  const invalid = (field: string, message: string) => new ValidationError(message, [{ field, message }]);
  if (body.mode !== 'undo') {
    const field = (['actor', 'since', 'until', 'fields'] as const).find((name) => body[name] !== undefined);
    if (field) throw invalid(field, `${field} filters an undo: give mode undo`);
    return;
  }
  if (body.targetConnectionId !== undefined)
    throw invalid(
      'targetConnectionId',
      "An undo reverses changes in the backup's own org; it takes no target",
    );
  if (body.prune !== undefined)
    throw invalid('prune', 'An undo deletes exactly the objects added since the backup; prune is not taken');
  checkWindow(body);
}

/** @throws ValidationError when `since` is after `until` */
export function checkWindow(filter: { since?: string; until?: string }): void {
  if (
    filter.since !== undefined &&
    filter.until !== undefined &&
    Date.parse(filter.since) > Date.parse(filter.until)
  )
    throw new ValidationError('since must not be after until', [
      { field: 'since', message: 'since must not be after until' },
    ]);
}

/** The attribution filter of an undo, as a restore keeps it. */
export function undoFilterOf(body: {
  actor?: string;
  since?: string;
  until?: string;
  fields?: UndoField[];
}): RestoreUndoFilter {
  return {
    ...(body.actor !== undefined ? { actor: body.actor } : {}),
    ...(body.since !== undefined ? { since: body.since } : {}),
    ...(body.until !== undefined ? { until: body.until } : {}),
    ...(body.fields?.length
      ? { fields: body.fields.map(({ resourceId, path }) => ({ resourceId, path })) }
      : {}),
  };
}

/**
 * Refuses a field an undo cannot put back: one the provider sets itself (a step of its path is
 * one of the descriptor's `serverOwnedFields`: ids, creation and update times, links), which no
 * write can set.
 * @throws ValidationError naming `fields[i].path`
 */
export function checkUndoFields(fields: readonly UndoField[], serverOwned: readonly string[]): void {
  const owned = new Set(serverOwned);
  fields.forEach(({ path }, index) => {
    const step = pointerTokens(path).find((token) => owned.has(token));
    if (step === undefined) return;
    const message = `${path}: ${step} is set by the provider itself; a restore cannot write it`;
    throw new ValidationError(message, [{ field: `fields[${index}].path`, message }]);
  });
}
