import { Badge, Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { currentConfig } from '../config';
import { UNREAD_BADGE_CAP, unreadBadgeText } from '../logic/notifications';
import { notificationsMessages as text } from '../messages/notifications';
import { useCan } from '../session/me';

/** TanStack Query key of the unread count; the inbox invalidates `['notifications']` after marking read. */
export const UNREAD_QUERY_KEY = ['notifications', 'unread'] as const;

/**
 * The header's link to the inbox with the unread count, for roles with `view notifications`.
 * The count is one `GET /api/notifications?unreadOnly=true&limit=100` every `unreadPollSeconds` of
 * the console's config (30 s unless its server says otherwise) while the tab is visible (served by
 * the API's partial index of unread rows); 100 or more show as "99+".
 */
export function NotificationBadge() {
  const allowed = useCan('view notifications');
  const unread = useQuery({
    queryKey: UNREAD_QUERY_KEY,
    queryFn: () =>
      unwrap(
        api().GET('/api/notifications', { params: { query: { unreadOnly: true, limit: UNREAD_BADGE_CAP } } }),
      ),
    enabled: allowed,
    refetchInterval: currentConfig().unreadPollSeconds * 1000,
  });
  if (!allowed) return null;
  const count = unreadBadgeText(unread.data?.notifications.length ?? 0);
  return (
    <Button
      component={Link}
      to="/notifications"
      variant="default"
      size="xs"
      px={8}
      aria-label={text.badge.label(count)}
      rightSection={
        count === '0' ? undefined : (
          <Badge size="sm" color="red.8" variant="filled" aria-hidden>
            {count}
          </Badge>
        )
      }
    >
      <BellIcon />
    </Button>
  );
}

/** A bell (outline, 16 px, current colour); decorative, the link names itself. */
function BellIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}
