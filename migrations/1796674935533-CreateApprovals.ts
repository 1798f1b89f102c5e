import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-person approval (docs/approvals.md): a team's setting (`team_approval_settings`, one row per
 * team, absent means off) and its requests (`approvals`): what was asked, with the body and the
 * preview the requester saw, held `pending` until a second member approves, rejects, or it expires.
 * One conditional UPDATE per transition (`WHERE status = 'pending'`) makes concurrent decisions
 * race-free: one wins.
 */
export class CreateApprovals1796674935533 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE team_approval_settings (
        team_id uuid PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        backup_delete boolean NOT NULL DEFAULT false,
        connection_delete boolean NOT NULL DEFAULT false,
        account_delete boolean NOT NULL DEFAULT false,
        expiry_hours integer NOT NULL DEFAULT 24 CHECK (expiry_hours BETWEEN 1 AND 168),
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      );
      CREATE TABLE approvals (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        action text NOT NULL
          CHECK (action IN ('restore', 'backup_delete', 'connection_delete', 'account_delete', 'settings')),
        target_type text NOT NULL,
        target_id text,
        summary text NOT NULL,
        body jsonb NOT NULL,
        preview jsonb,
        requested_by uuid NOT NULL,
        requester_role text NOT NULL,
        requester_client_id text,
        client_name text,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'executed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        decided_by uuid,
        decided_at timestamptz,
        reason text,
        executed_at timestamptz,
        result jsonb,
        error text
      );
      CREATE INDEX approvals_team_status ON approvals (team_id, status, created_at DESC);
      CREATE INDEX approvals_pending_expiry ON approvals (expires_at) WHERE status = 'pending';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE approvals; DROP TABLE team_approval_settings');
  }
}
