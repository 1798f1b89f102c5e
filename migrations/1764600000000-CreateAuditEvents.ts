import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (docs/notifications.md, DESIGN section 4): one append-only row per API mutation and job
 * outcome, written in the transaction of the change it records (src/audit). A trigger refuses
 * UPDATE, DELETE and TRUNCATE, the cascade of a team's deletion included, unless the
 * transaction has set `idp_backup.allow_audit_delete` to `on` (`SET LOCAL`, the account-deletion
 * job's duty: docs/notifications.md); rows are never updated, even then.
 * `actor_email` is copied at write time so the trail still names a user deleted since.
 * The indexes serve GET /api/audit-events (newest first, keyset on (occurred_at, id); by target)
 * and the fan-out's question "who started this backup or restore".
 */
export class CreateAuditEvents1764600000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'client', 'system', 'schedule')),
        actor_id uuid,
        actor_email text,
        actor_client_id text,
        action text NOT NULL CHECK (action ~ '^[a-z_]+(\\.[a-z_]+)+$'),
        target_type text NOT NULL,
        target_id text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
        ip text,
        request_id text,
        details jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_events_team_time ON audit_events (team_id, occurred_at DESC, id DESC);
      CREATE INDEX audit_events_team_target ON audit_events (team_id, target_id, occurred_at, id);

      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'TRUNCATE')
           AND current_setting('idp_backup.allow_audit_delete', true) = 'on' THEN
          RETURN OLD; -- NULL for TRUNCATE, whose statement trigger's result is ignored
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege',
                HINT = 'Only the account-deletion job deletes audit events (SET LOCAL idp_backup.allow_audit_delete = ''on'').';
      END $$;
      CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
      CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE audit_events');
    await db.query('DROP FUNCTION audit_events_append_only()');
  }
}
