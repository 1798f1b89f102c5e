import { PageLimit, QueryBoolean } from '@app/common/query-params.decorator.js';

/** Most notifications one GET returns. */
export const MAX_NOTIFICATIONS_PAGE = 200;

/** Query of GET /api/notifications (spec "Notifications"). */
export class ListNotificationsQuery {
  @PageLimit(50, MAX_NOTIFICATIONS_PAGE)
  limit: number = 50;

  @QueryBoolean('Only notifications not yet marked read.')
  unreadOnly: boolean = false;
}
