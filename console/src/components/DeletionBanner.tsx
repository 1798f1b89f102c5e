import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { accountMessages } from '../messages/account';
import { useCan, useMe } from '../session/me';
import { ErrorAlert } from './ErrorAlert';
import { Instant } from './Instant';

const text = accountMessages.banner;

/**
 * Cancels the team's pending deletion (`DELETE /api/account/delete`, permission
 * `account erasure`), then reloads `/api/me`, whose `deletion_scheduled_for` becomes null.
 */
export function useCancelDeletion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api().DELETE('/api/account/delete')),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.cancelled });
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
}

/**
 * Shown above every signed-in screen while the current team's deletion is pending (the grace
 * period of docs/account.md, `current_team.deletion_scheduled_for` of `GET /api/me`): when the
 * deletion starts, and for the owner a button that cancels it.
 */
export function DeletionBanner() {
  const me = useMe();
  const canCancel = useCan('account erasure');
  const cancel = useCancelDeletion();
  const scheduledFor = me.data?.current_team.deletion_scheduled_for;
  if (!scheduledFor) return null;
  return (
    <Alert color="red" title={text.title} mb="md" role="region" aria-label={text.title}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {text.body} <Instant iso={scheduledFor} />.{!canCancel && ` ${text.ownerCancels}`}
        </Text>
        {canCancel && (
          <Button size="xs" color="red" onClick={() => cancel.mutate()} loading={cancel.isPending}>
            {text.cancel}
          </Button>
        )}
      </Group>
      {cancel.error && <ErrorAlert error={cancel.error} />}
    </Alert>
  );
}
