/**
 * Progress text while parts are written at once: the first few types still being collected,
 * e.g. "Backing up user, group, app and 1 more type (12 of 46 resource types written)".
 */
export function describeRunning(running: ReadonlySet<string>, done: number, total: number): string {
  const shown = [...running].slice(0, 3);
  const hidden = running.size - shown.length;
  const more = hidden > 0 ? ` and ${hidden} more ${hidden === 1 ? 'type' : 'types'}` : '';
  const now = shown.length > 0 ? ` ${shown.join(', ')}${more}` : '';
  return `Backing up${now} (${done} of ${total} resource types written)`;
}
