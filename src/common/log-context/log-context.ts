import { AsyncLocalStorage } from 'node:async_hooks';

/** Fields every log line of the current job carries: `job_id`, `queue`, `backup_id`, `connection_id`... */
export type LogFields = Record<string, string>;

const storage = new AsyncLocalStorage<LogFields>();

/**
 * Runs `work` with `fields` on every line it logs, through every await it makes (Node's
 * AsyncLocalStorage). Nested calls see the outer fields too.
 */
export function runWithLogFields<T>(fields: LogFields, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, work);
}

/**
 * Adds fields to the lines the current job logs from now on (the ids a job learns once it has
 * loaded its run: its connection, its team). Outside runWithLogFields, does nothing.
 */
export function addLogFields(fields: LogFields): void {
  const store = storage.getStore();
  if (store) Object.assign(store, fields);
}

/** The current job's fields, or undefined outside a job. */
export function currentLogFields(): LogFields | undefined {
  return storage.getStore();
}

/**
 * The ids in a job's payload as log fields: each top-level string under a key ending in `Id`,
 * the key in snake_case (`{ backupId }` gives `backup_id`).
 */
export function payloadLogFields(payload: unknown): LogFields {
  const fields: LogFields = {};
  if (!payload || typeof payload !== 'object') return fields;
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string' && /[a-z]Id$/.test(key)) {
      fields[key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = value;
    }
  }
  return fields;
}
