import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One step of a team's hard deletion: `sql` deletes rows of `table` for team $1 and reports their number. */
interface PurgeStep {
  table: string;
  sql: string;
}

const teamRows = (table: string): PurgeStep => ({ table, sql: `DELETE FROM ${table} WHERE team_id = $1` });

/** Members of team $1 who belong to no other team (they go with it, docs/account.md). */
const ONLY_HERE = `SELECT m.user_id FROM team_members m WHERE m.team_id = $1
  AND NOT EXISTS (SELECT 1 FROM team_members o WHERE o.user_id = m.user_id AND o.team_id <> $1)`;

/**
 * Whether `users.id` is still named by another team's rows once this team's are gone: a member
 * removed from another team stays the owner of the connections and backups made there, and the
 * creator of its clients (their foreign keys keep the user). Such a user cannot be deleted
 * without changing that team's data, so its personal data is erased instead.
 */
const REFERENCED_ELSEWHERE = `(EXISTS (SELECT 1 FROM connections c WHERE c.owner_user_id = users.id)
  OR EXISTS (SELECT 1 FROM backups b WHERE b.owner_user_id = users.id)
  OR EXISTS (SELECT 1 FROM oauth_clients o WHERE o.created_by = users.id))`;

/**
 * Every team-scoped table, children before parents (foreign keys without a cascade: backups
 * before connections, the team's clients before the users who created them). Each step is
 * idempotent, so a run that crashed after some of them resumes from the top.
 */
const STEPS: readonly PurgeStep[] = [
  teamRows('audit_events'),
  teamRows('notifications'),
  teamRows('notification_preferences'),
  teamRows('account_exports'),
  teamRows('reports'),
  teamRows('compliance_checks'),
  teamRows('compliance_runs'),
  teamRows('compliance_results'),
  teamRows('connection_drift'),
  teamRows('score_readings'),
  teamRows('change_attributions'),
  {
    table: 'restore_items',
    sql: 'DELETE FROM restore_items WHERE restore_id IN (SELECT id FROM restores WHERE team_id = $1)',
  },
  teamRows('restores'),
  teamRows('restore_previews'),
  teamRows('restore_drills'),
  teamRows('schedules'),
  teamRows('backups'),
  teamRows('connections'),
  teamRows('sessions'),
  teamRows('team_invitations'),
  {
    // Grants, tokens and sessions of the authorization server: those of the team's clients, and
    // those naming the team (the account subject carries the team's id, auth/account-subject.ts).
    table: 'oidc_payloads',
    sql: `DELETE FROM oidc_payloads WHERE payload->>'clientId' IN (SELECT client_id FROM oauth_clients WHERE team_id = $1::uuid)
      OR payload::text LIKE '%' || $1::text || '%'`,
  },
  teamRows('oauth_clients'),
  {
    table: 'sign_in_codes',
    sql: `DELETE FROM sign_in_codes WHERE lower(email) IN (SELECT lower(email) FROM users WHERE id IN (${ONLY_HERE}))`,
  },
  {
    // RFC 2606 reserves `.invalid`: the address can never reach anyone, and stays unique.
    table: 'users_erased',
    sql: `UPDATE users SET email = 'erased-' || id || '@invalid', name = NULL
      WHERE id IN (${ONLY_HERE}) AND ${REFERENCED_ELSEWHERE} AND email <> 'erased-' || id || '@invalid'`,
  },
  { table: 'users', sql: `DELETE FROM users WHERE id IN (${ONLY_HERE}) AND NOT ${REFERENCED_ELSEWHERE}` },
  teamRows('team_members'),
];

/**
 * The hard deletion of a team's rows (docs/account.md), step by step, each in its own transaction with
 * the update of the team's counts-only row (`deleted_accounts`), so the counts are exact however
 * often a crash made a run start again.
 */
@Injectable()
export class TeamPurgeRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Opens the team's counts-only row (kept when a crashed run left it). */
  async begin(teamId: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO deleted_accounts (team_id) VALUES ($1) ON CONFLICT (team_id) DO NOTHING',
      [teamId],
    );
  }

  /** Adds the objects and bytes removed from the store to the counts. */
  async addObjects(teamId: string, objects: number, bytes: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE deleted_accounts SET objects_removed = objects_removed + $2, bytes_removed = bytes_removed + $3
       WHERE team_id = $1`,
      [teamId, objects, bytes],
    );
  }

  /** Deletes every row of the team, table by table, then the team itself, and closes the counts row. */
  async deleteRows(teamId: string): Promise<void> {
    for (const step of [...STEPS, { table: 'teams', sql: 'DELETE FROM teams WHERE id = $1' }]) {
      await this.dataSource.transaction(async (tx) => {
        // Only this job may delete audit events (migration CreateAuditEvents).
        await tx.query(`SET LOCAL idp_backup.allow_audit_delete = 'on'`);
        const [, deleted] = (await tx.query(step.sql, [teamId])) as [unknown, number];
        await tx.query(
          `UPDATE deleted_accounts
           SET counts = counts || jsonb_build_object($2::text, coalesce((counts->>$2::text)::bigint, 0) + $3),
               completed_at = CASE WHEN $2::text = 'teams' THEN now() END
           WHERE team_id = $1`,
          [teamId, step.table, deleted],
        );
      });
    }
  }
}
