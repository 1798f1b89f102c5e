import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations to join a team (docs/security.md): an e-mail address, stored
 * normalized (trimmed, lower case), and the role it receives at its first sign-in. A pending
 * invitation is one not yet accepted; at most one is pending per team and address (inviting
 * again replaces it). `super_admin` is never invited: the owner changes only by transfer.
 * Revoking deletes the row; accepting stamps `accepted_at` and `accepted_by`.
 */
export class CreateTeamInvitations1764200000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE team_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(btrim(email)) AND email <> ''),
        role text NOT NULL CHECK (role IN ('admin', 'operator', 'auditor', 'viewer')),
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
        CHECK (expires_at > created_at)
      );
      CREATE UNIQUE INDEX team_invitations_pending ON team_invitations (team_id, email) WHERE accepted_at IS NULL;
      CREATE INDEX team_invitations_pending_email ON team_invitations (email) WHERE accepted_at IS NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE team_invitations');
  }
}
