import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ValidationError } from '@app/common/errors.js';
import { keysetRows } from '@app/common/keyset-rows.js';
import type { MarkReadDto } from './dto/mark-read.dto.js';
import type { ListNotificationsQuery } from './dto/list-notifications.query.js';
import type { NotificationDto, NotificationPreferenceDto } from './dto/notification.dto.js';
import type { UpdatePreferencesDto } from './dto/update-preferences.dto.js';
import { defaultPreference, NOTIFICATION_TYPES } from './notification-types.js';
import {
  type NotificationRow,
  NotificationsRepository,
  type TeamNotificationRow,
} from './notifications.repository.js';

/** Rows read per query when a period's notifications are streamed out. */
const PERIOD_PAGE = 500;

/**
 * The caller's notifications (spec "Notifications", DESIGN section 4) and delivery preferences
 * (docs/notifications.md). Everything is the calling user's in the calling team: for an integration client,
 * the member it acts for.
 */
@Injectable()
export class NotificationsService {
  constructor(private readonly notifications: NotificationsRepository) {}

  /**
   * Everything the team was notified of in [from, to], one entry per event with its recipients
   * counted, oldest first; read a page at a time (the audit pack, docs/export.md).
   */
  async *listTeamPeriod(
    teamId: string,
    period: { from: Date; to: Date },
  ): AsyncGenerator<
    Omit<NotificationDto, 'id' | 'read_at'> & {
      event_id: string;
      recipients: number;
      emailed: number;
      read: number;
    }
  > {
    const rows = keysetRows<TeamNotificationRow>(
      (after) => this.notifications.teamPeriodPage(teamId, period, after, PERIOD_PAGE),
      PERIOD_PAGE,
    );
    for await (const row of rows)
      yield {
        event_id: row.eventId,
        type: row.type,
        severity: row.severity,
        title: row.title,
        message: row.message,
        data: row.data,
        created_at: row.createdAt.toISOString(),
        recipients: row.recipients,
        emailed: row.emailed,
        read: row.read,
      };
  }

  /** Newest first, at most `limit`, unread only on request. */
  async list(actor: Actor, query: ListNotificationsQuery): Promise<NotificationDto[]> {
    const rows = await this.notifications.list(actor.teamId, actor.userId, query.limit, query.unreadOnly);
    return rows.map(toNotificationDto);
  }

  /**
   * Marks the caller's notifications of `ids` read, or all of them; ids that are not the
   * caller's unread notifications are ignored.
   * @returns how many were marked
   * @throws ValidationError unless exactly one of `ids` and `all` is given
   */
  async markRead(actor: Actor, body: MarkReadDto): Promise<number> {
    if ((body.ids === undefined) === (body.all === undefined)) {
      throw new ValidationError('Give either ids or all: true', [
        { field: 'ids', message: 'ids or all, not both' },
      ]);
    }
    return this.notifications.markRead(actor.teamId, actor.userId, body.ids ?? null);
  }

  /** Every type with the caller's delivery: saved, else the default. */
  async preferences(actor: Actor): Promise<NotificationPreferenceDto[]> {
    const saved = new Map(
      (await this.notifications.listPreferences(actor.teamId, actor.userId)).map((row) => [row.type, row]),
    );
    return NOTIFICATION_TYPES.map((type) => {
      const fallback = defaultPreference(type);
      const row = saved.get(type);
      return {
        type,
        in_app: row?.inApp ?? fallback.inApp,
        email: row?.email ?? fallback.email,
        default: row?.inApp == null && row?.email == null,
      };
    });
  }

  /** Saves the changes (what a change leaves out keeps its value) and returns every type's delivery. */
  async updatePreferences(actor: Actor, body: UpdatePreferencesDto): Promise<NotificationPreferenceDto[]> {
    await this.notifications.savePreferences(
      actor.teamId,
      actor.userId,
      body.preferences.map((change) => ({
        type: change.type,
        inApp: change.in_app ?? null,
        email: change.email ?? null,
      })),
    );
    return this.preferences(actor);
  }
}

function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    title: row.title,
    message: row.message,
    data: row.data,
    read_at: row.readAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
