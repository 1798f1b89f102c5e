import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { SeverityBadge } from '../../components/SeverityBadge';
import { notificationLink } from '../../logic/notifications';
import { notificationsMessages } from '../../messages/notifications';
import { ScreenHeading } from '../../components/ScreenHeading';

const text = notificationsMessages.inbox;
/** The inbox's page: the newest 100 (the API answers at most 200). */
const INBOX_LIMIT = 100;

/**
 * The signed-in member's notifications, newest first (`GET /api/notifications`), with "Unread
 * only", and marking one or all read (`POST /api/notifications/read`), which also lowers the
 * header's badge. Roles with `view notifications` (every role).
 */
export function InboxScreen() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['notifications', 'list', { unreadOnly }],
    queryFn: () =>
      unwrap(api().GET('/api/notifications', { params: { query: { unreadOnly, limit: INBOX_LIMIT } } })),
  });
  const markRead = useMutation({
    mutationFn: (body: Schemas['MarkReadDto']) => unwrap(api().POST('/api/notifications/read', { body })),
    // The list and the header's badge read again; the item's state says it is read.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
  const items = list.data?.notifications ?? [];
  const anyUnread = items.some((item) => !item.read_at);
  return (
    <Stack>
      <Group justify="space-between" align="center">
        <ScreenHeading title={text.title} />
        <Anchor component={Link} to="/settings/notifications">
          {text.preferences}
        </Anchor>
      </Group>
      <Group align="center">
        <Switch
          label={text.unreadOnly}
          checked={unreadOnly}
          onChange={(event) => setUnreadOnly(event.currentTarget.checked)}
        />
        <Button
          variant="default"
          disabled={!anyUnread}
          loading={markRead.isPending && markRead.variables?.all === true}
          onClick={() => markRead.mutate({ all: true })}
        >
          {text.markAllRead}
        </Button>
      </Group>
      {markRead.error && <ErrorAlert error={markRead.error} />}
      {list.error && <ErrorAlert error={list.error} />}
      {!list.data && !list.error && <Text>{text.loading}</Text>}
      {list.data && items.length === 0 && <Text>{unreadOnly ? text.emptyUnread : text.empty}</Text>}
      {items.length > 0 && (
        <Stack component="ul" aria-label={text.list} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <NotificationItem
              key={item.id}
              item={item}
              marking={markRead.isPending && markRead.variables?.ids?.includes(item.id) === true}
              onMarkRead={() => markRead.mutate({ ids: [item.id] })}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** One notification: severity, read state, title, message, when, and its actions. */
function NotificationItem({
  item,
  marking,
  onMarkRead,
}: {
  item: Schemas['Notification'];
  marking: boolean;
  onMarkRead: () => void;
}) {
  const link = notificationLink(item.data);
  const unread = !item.read_at;
  return (
    <Paper component="li" withBorder p="sm" data-unread={unread}>
      <Stack gap={4}>
        <Group gap="xs">
          <SeverityBadge severity={item.severity} />
          <Badge variant={unread ? 'filled' : 'outline'} color={unread ? 'blue.8' : 'gray'}>
            {unread ? text.unread : text.read}
          </Badge>
          <Text size="sm" c="dimmed">
            <Instant iso={item.created_at} />
          </Text>
        </Group>
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {item.title}
        </Text>
        <Text style={{ overflowWrap: 'anywhere' }}>{item.message}</Text>
        <Group gap="xs">
          {link && (
            <Button component={Link} to={link} size="xs" variant="light" aria-label={text.openOf(item.title)}>
              {text.open}
            </Button>
          )}
          {unread && (
            <Button
              size="xs"
              variant="default"
              loading={marking}
              onClick={onMarkRead}
              aria-label={text.markReadOf(item.title)}
            >
              {text.markRead}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
