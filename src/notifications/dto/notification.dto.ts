import type { NotificationSeverity, NotificationType } from '@app/notifications/notification-types.js';

/** A notification (DESIGN section 4 "Notification"). */
export interface NotificationDto {
  id: string;
  type: NotificationType;
  severity: NotificationSeverity;
  title: string;
  message: string;
  data: Record<string, unknown>;
  read_at: string | null;
  created_at: string;
}

/**
 * A member's delivery of one type. A default shows as the rule it follows: `in_app` `"first"`
 * (backup.completed: the connection's first only), `email` `"critical"` (drift.detected: critical only).
 */
export interface NotificationPreferenceDto {
  type: NotificationType;
  in_app: boolean | 'first';
  email: boolean | 'critical';
  /** true while the member saved no choice for the type */
  default: boolean;
}
