import { connectionName } from './format';

/** A connection as backups name it (`ConnectionRef`: id, provider, org name and URL). */
export interface ConnectionRef {
  id: string;
  org_name?: string | null;
  org_url: string;
}

/** A choice of the "Run backup" picker: the connection's id and display name. */
export interface RunTarget {
  value: string;
  label: string;
}

/**
 * The connections a backup can be started for, from what the role may read: every connection of
 * the team where the role may list them (`manage connections`), else those the team's backups
 * name (`view backups` answers each backup's connection). Each connection once, by display name.
 */
export function runTargets(
  connections: readonly ConnectionRef[] | undefined,
  backups: ReadonlyArray<{ connection: ConnectionRef }> | undefined,
): RunTarget[] {
  const byId = new Map<string, RunTarget>();
  for (const connection of connections ?? backups?.map((backup) => backup.connection) ?? []) {
    if (!byId.has(connection.id))
      byId.set(connection.id, { value: connection.id, label: connectionName(connection) });
  }
  return [...byId.values()].sort((a, b) => a.label.localeCompare(b.label) || a.value.localeCompare(b.value));
}
