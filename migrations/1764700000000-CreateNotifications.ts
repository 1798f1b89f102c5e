import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * In-app notifications and their e-mail (docs/notifications.md, spec "Notifications", DESIGN section 4).
 * One row per recipient of an audit event: (event_id, user_id) is unique, so a retried fan-out
 * job inserts nothing twice, and `email_state` (`none`, `pending`, `sending`, `sent`) lets the
 * e-mail job claim a message before sending it, so a retry never sends it twice. A row with
 * `in_app` false exists only to carry its e-mail. The partial indexes serve the inbox, newest
 * first, all or unread only. Preferences are per member and type; a missing row or a null
 * column means the type's default (src/notifications/notification-types.ts).
 */
export class CreateNotifications1764700000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        type text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
        title text NOT NULL,
        message text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        in_app boolean NOT NULL,
        email_state text NOT NULL CHECK (email_state IN ('none', 'pending', 'sending', 'sent')),
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notifications_one_per_recipient UNIQUE (event_id, user_id)
      );
      CREATE INDEX notifications_inbox ON notifications (user_id, team_id, created_at DESC, id DESC)
        WHERE in_app;
      CREATE INDEX notifications_unread ON notifications (user_id, team_id, created_at DESC, id DESC)
        WHERE in_app AND read_at IS NULL;

      CREATE TABLE notification_preferences (
        team_id uuid NOT NULL,
        user_id uuid NOT NULL,
        type text NOT NULL,
        in_app boolean,
        email boolean,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, user_id, type),
        FOREIGN KEY (team_id, user_id) REFERENCES team_members (team_id, user_id) ON DELETE CASCADE
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE notification_preferences');
    await db.query('DROP TABLE notifications');
  }
}
