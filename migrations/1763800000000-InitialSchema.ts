import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenancy, the service's own OAuth state, connections and backups (DESIGN sections 3-5).
 * Every customer row carries team_id; secrets are stored only encrypted or hashed.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE plans (
        name text PRIMARY KEY,
        max_connections integer,
        max_manual_backups_per_day integer,
        retention_days integer
      );
      INSERT INTO plans (name, max_connections, max_manual_backups_per_day, retention_days) VALUES
        ('free', 1, 3, 7), ('trial', 3, 20, 14), ('team', 10, 200, 90), ('enterprise', NULL, NULL, 365);

      CREATE TABLE teams (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        plan text NOT NULL REFERENCES plans (name),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email));

      CREATE TABLE team_members (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('super_admin', 'admin', 'operator', 'auditor', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, user_id)
      );
      CREATE UNIQUE INDEX team_members_one_owner ON team_members (team_id) WHERE role = 'super_admin';

      CREATE TABLE oauth_clients (
        client_id text PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('super_admin', 'admin', 'operator', 'auditor', 'viewer')),
        name text NOT NULL,
        secret_hash text NOT NULL,
        created_by uuid NOT NULL REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX oauth_clients_team ON oauth_clients (team_id);

      CREATE TABLE oauth_signing_keys (
        kid text PRIMARY KEY,
        private_jwk_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      );

      CREATE TABLE oidc_payloads (
        id text NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (id, type)
      );
      CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id);
      CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid);
      CREATE INDEX oidc_payloads_expires ON oidc_payloads (expires_at);

      CREATE TABLE connections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        owner_user_id uuid NOT NULL REFERENCES users (id),
        provider text NOT NULL DEFAULT 'okta' CHECK (provider IN ('okta', 'okta_workflows', 'entra_id')),
        org_url text NOT NULL,
        org_name text,
        client_id text NOT NULL,
        client_secret_enc text NOT NULL,
        last_verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      );
      CREATE INDEX connections_team ON connections (team_id) WHERE deleted_at IS NULL;

      CREATE TABLE backups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections (id),
        owner_user_id uuid NOT NULL REFERENCES users (id),
        status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        kind text NOT NULL DEFAULT 'full' CHECK (kind IN ('full', 'incremental')),
        base_backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        triggered_by text NOT NULL DEFAULT 'manual' CHECK (triggered_by IN ('manual', 'schedule', 'pre_restore')),
        include text[],
        include_workflows boolean NOT NULL DEFAULT false,
        job_id text,
        progress_pct real NOT NULL DEFAULT 0,
        progress_message text NOT NULL DEFAULT '',
        error_message text,
        started_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        storage_key text NOT NULL,
        resource_counts jsonb NOT NULL DEFAULT '{}',
        resource_types text[] NOT NULL DEFAULT '{}',
        size bigint NOT NULL DEFAULT 0,
        sha256 text,
        requests integer NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX backups_one_running ON backups (connection_id) WHERE status = 'running';
      CREATE INDEX backups_team_started ON backups (team_id, started_at DESC);
      CREATE INDEX backups_running_heartbeat ON backups (heartbeat_at) WHERE status = 'running';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE backups; DROP TABLE connections; DROP TABLE oidc_payloads; DROP TABLE oauth_signing_keys;
      DROP TABLE oauth_clients; DROP TABLE team_members; DROP TABLE users; DROP TABLE teams; DROP TABLE plans;
    `);
  }
}
