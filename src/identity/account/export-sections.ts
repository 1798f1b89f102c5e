/**
 * One section of the account export bundle: a JSON array (or, for `team`, one object) of the
 * rows a query returns. `sql` selects one jsonb column `row` per row, takes the team's id as $1,
 * and drops what must not leave the service: secret hashes and ciphertexts (docs/account.md).
 */
export interface ExportSection {
  name: string;
  sql: string;
}

/** The section `name` of every column of the team's rows of `table`, in `orderBy` order. */
function wholeRows(name: string, table: string, orderBy: string): ExportSection {
  return { name, sql: `SELECT to_jsonb(t) AS row FROM ${table} t WHERE team_id = $1 ORDER BY ${orderBy}` };
}

/** Replaces a connection's sealed credentials with the marker the issue names. */
export const REDACTED = '[redacted]';

/**
 * Every team-scoped table, in the bundle's order (docs/account.md). Sessions are
 * left out: they are sign-in state (a hashed bearer value), not data the team keeps. Each query
 * has a total order, so two exports of unchanged data are identical.
 */
export const EXPORT_SECTIONS: readonly ExportSection[] = [
  {
    name: 'members',
    sql: `SELECT to_jsonb(m) || jsonb_build_object('email', u.email, 'name', u.name) AS row
      FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.team_id = $1 ORDER BY m.created_at, m.user_id`,
  },
  wholeRows('invitations', 'team_invitations', 'created_at, id'),
  {
    name: 'clients',
    sql: `SELECT to_jsonb(c) - 'secret_hash' AS row FROM oauth_clients c WHERE team_id = $1 ORDER BY created_at, client_id`,
  },
  {
    name: 'connections',
    sql: `SELECT (to_jsonb(c) - 'credentials_enc') || jsonb_build_object('credentials', '${REDACTED}') AS row
      FROM connections c WHERE team_id = $1 ORDER BY created_at, id`,
  },
  wholeRows('schedules', 'schedules', 'created_at, connection_id'),
  wholeRows('backups', 'backups', 'started_at, id'),
  wholeRows('restores', 'restores', 'created_at, id'),
  {
    name: 'restore_items',
    sql: `SELECT to_jsonb(i) AS row FROM restore_items i JOIN restores r ON r.id = i.restore_id
      WHERE r.team_id = $1 ORDER BY r.created_at, i.restore_id, i.seq`,
  },
  wholeRows('restore_drills', 'restore_drills', 'created_at, id'),
  wholeRows('restore_previews', 'restore_previews', 'created_at, id'),
  wholeRows('compliance_runs', 'compliance_runs', 'occurred_at, id'),
  wholeRows('compliance_results', 'compliance_results', 'generated_at, id'),
  wholeRows('compliance_checks', 'compliance_checks', 'created_at, id'),
  wholeRows('connection_drift', 'connection_drift', 'connection_id'),
  wholeRows('change_attributions', 'change_attributions', 'changed_at, id'),
  wholeRows('notifications', 'notifications', 'created_at, id'),
  wholeRows('notification_preferences', 'notification_preferences', 'user_id, type'),
  wholeRows('reports', 'reports', 'created_at, id'),
  wholeRows('account_exports', 'account_exports', 'completed_at, id'),
  wholeRows('account_deletions', 'account_deletions', 'requested_at'),
  wholeRows('audit_events', 'audit_events', 'occurred_at, id'),
];

/** The team's own record, the bundle's `team` object. */
export const TEAM_SQL = 'SELECT to_jsonb(t) AS row FROM teams t WHERE id = $1';
