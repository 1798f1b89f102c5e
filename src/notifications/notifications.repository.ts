import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Role } from '@app/common/permission.js';
import type { Transaction } from '@app/platform/database/transaction.js';
import type { PlannedNotification } from './notification-rules.js';
import type { Delivery, NotificationSeverity, NotificationType } from './notification-types.js';

/** A notification as its recipient reads it. */
export interface NotificationRow {
  id: string;
  type: NotificationType;
  severity: NotificationSeverity;
  title: string;
  message: string;
  data: Record<string, unknown>;
  readAt: Date | null;
  createdAt: Date;
}

/** A notification claimed for its e-mail, with its recipient's address. */
export interface ClaimedEmail extends NotificationRow {
  email: string;
}

/** A member's saved preference for one type; null keeps (or is) the type's default. */
export interface PreferenceRow {
  type: string;
  inApp: boolean | null;
  email: boolean | null;
}

/** One notification event of a team as an auditor reads it: what was said, to how many, how. */
export interface TeamNotificationRow {
  eventId: string;
  type: NotificationType;
  severity: NotificationSeverity;
  title: string;
  message: string;
  data: Record<string, unknown>;
  createdAt: Date;
  /** members it was delivered to (in the app, by e-mail or both) */
  recipients: number;
  /** of those, how many were e-mailed it */
  emailed: number;
  /** of those, how many read it in the app */
  read: number;
}

const COLUMNS = `n.id, n.type, n.severity, n.title, n.message, n.data, n.read_at AS "readAt", n.created_at AS "createdAt"`;

/** `notifications` and `notification_preferences`; every read and write is scoped by team and user. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts one notification per recipient (members of `roles` in the team), each delivered as
   * its saved preference says, else as `defaults`; members who get neither are skipped. A
   * recipient who already has this event's notification gets nothing (a retried fan-out), nor
   * does `exceptUserId` (a request's requester, who cannot approve it).
   * @returns ids of the rows inserted whose e-mail is to be sent
   */
  async fanOut(
    tx: Transaction,
    notification: PlannedNotification,
    roles: readonly Role[],
    defaults: Delivery,
    exceptUserId: string | null = null,
  ): Promise<string[]> {
    const rows: Array<{ id: string }> = await tx.query(
      `WITH recipients AS (
         SELECT m.user_id, coalesce(p.in_app, $9) AS in_app, coalesce(p.email, $10) AS email
         FROM team_members m
         LEFT JOIN notification_preferences p
           ON p.team_id = m.team_id AND p.user_id = m.user_id AND p.type = $3
         WHERE m.team_id = $1 AND m.role = ANY($8::text[]) AND m.user_id IS DISTINCT FROM $11::uuid
       ), inserted AS (
         INSERT INTO notifications (team_id, user_id, event_id, type, severity, title, message, data, in_app, email_state)
         SELECT $1, user_id, $2, $3, $4, $5, $6, $7, in_app, CASE WHEN email THEN 'pending' ELSE 'none' END
         FROM recipients WHERE in_app OR email
         ON CONFLICT ON CONSTRAINT notifications_one_per_recipient DO NOTHING
         RETURNING id, email_state
       )
       SELECT id FROM inserted WHERE email_state = 'pending'`,
      [
        notification.teamId,
        notification.eventId,
        notification.type,
        notification.severity,
        notification.title,
        notification.message,
        JSON.stringify(notification.data),
        roles,
        defaults.inApp,
        defaults.email,
        exceptUserId,
      ],
    );
    return rows.map((row) => row.id);
  }

  /** The user's newest `limit` notifications in the team (index notifications_inbox / _unread). */
  list(teamId: string, userId: string, limit: number, unreadOnly: boolean): Promise<NotificationRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM notifications n
       WHERE n.user_id = $1 AND n.team_id = $2 AND n.in_app ${unreadOnly ? 'AND n.read_at IS NULL' : ''}
       ORDER BY n.created_at DESC, n.id DESC LIMIT $3`,
      [userId, teamId, limit],
    );
  }

  /**
   * One page of the team's notifications created in [from, to], one row per audit event with its
   * recipients counted, oldest first (created_at, event id), after `after` (the audit pack, docs/export.md).
   * @param limit rows at most
   */
  teamPeriodPage(
    teamId: string,
    period: { from: Date; to: Date },
    after: Pick<TeamNotificationRow, 'createdAt' | 'eventId'> | undefined,
    limit: number,
  ): Promise<TeamNotificationRow[]> {
    return this.dataSource.query(
      `SELECT event_id AS "eventId", min(type) AS type, min(severity) AS severity, min(title) AS title,
         min(message) AS message, (array_agg(data))[1] AS data, min(created_at) AS "createdAt",
         count(*)::int AS recipients, count(*) FILTER (WHERE email_state = 'sent')::int AS emailed,
         count(read_at)::int AS read
       FROM notifications WHERE team_id = $1 AND created_at BETWEEN $2 AND $3
       GROUP BY event_id
       HAVING $4::timestamptz IS NULL OR (min(created_at), event_id) > ($4::timestamptz, $5::uuid)
       ORDER BY min(created_at), event_id LIMIT $6`,
      [teamId, period.from, period.to, after?.createdAt ?? null, after?.eventId ?? null, limit],
    );
  }

  /**
   * Marks the user's unread notifications read: those of `ids`, or all when `ids` is null.
   * Ids of someone else's notifications match nothing. @returns how many were marked
   */
  async markRead(teamId: string, userId: string, ids: string[] | null): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE notifications SET read_at = now()
       WHERE user_id = $1 AND team_id = $2 AND in_app AND read_at IS NULL ${ids ? 'AND id = ANY($3::uuid[])' : ''}`,
      ids ? [userId, teamId, ids] : [userId, teamId],
    );
    return count;
  }

  /**
   * Claims the e-mail of a notification (`pending` -> `sending`), so no other attempt sends it.
   * @returns it with its recipient's address, or null when it was claimed already or is gone
   */
  async claimEmail(id: string): Promise<ClaimedEmail | null> {
    const [rows]: [ClaimedEmail[], number] = await this.dataSource.query(
      `UPDATE notifications n SET email_state = 'sending' FROM users u
       WHERE n.id = $1 AND n.email_state = 'pending' AND u.id = n.user_id
       RETURNING ${COLUMNS}, u.email`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Ends a claim: `sent`, or back to `pending` for the next attempt after a failure. */
  async settleEmail(id: string, state: 'sent' | 'pending'): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifications SET email_state = $2 WHERE id = $1 AND email_state = 'sending'`,
      [id, state],
    );
  }

  /** The member's saved preferences in the team. */
  listPreferences(teamId: string, userId: string): Promise<PreferenceRow[]> {
    return this.dataSource.query(
      `SELECT type, in_app AS "inApp", email FROM notification_preferences WHERE team_id = $1 AND user_id = $2`,
      [teamId, userId],
    );
  }

  /** Saves the member's preference for each type given, in one transaction; a null keeps what was saved. */
  async savePreferences(teamId: string, userId: string, preferences: PreferenceRow[]): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      for (const preference of preferences) {
        await tx.query(
          `INSERT INTO notification_preferences (team_id, user_id, type, in_app, email) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (team_id, user_id, type) DO UPDATE
           SET in_app = coalesce(excluded.in_app, notification_preferences.in_app),
               email = coalesce(excluded.email, notification_preferences.email), updated_at = now()`,
          [teamId, userId, preference.type, preference.inApp, preference.email],
        );
      }
    });
  }
}
