import { Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ConfirmModal } from '../../components/ConfirmModal';
import { useCancelDeletion } from '../../components/DeletionBanner';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { accountMessages } from '../../messages/account';

const text = accountMessages.deletion;

/**
 * Account deletion (permission `account erasure`: the owner; docs/account.md): the request asks
 * for DELETE typed, as the API does (`POST /api/account/delete {confirm: "DELETE"}`), and starts
 * the 30-day grace period; while it runs, when it ends and the cancel button.
 */
export function DeletionSection({
  scheduledFor,
  canErase,
}: {
  scheduledFor: string | null;
  canErase: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelDeletion();
  const request = useMutation({
    mutationFn: () => unwrap(api().POST('/api/account/delete', { body: { confirm: text.typed } })),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
  return (
    <Stack component="section" aria-labelledby="account-deletion-title" gap="xs" align="flex-start">
      <Title order={2} size="h3" id="account-deletion-title">
        {text.title}
      </Title>
      <Text size="sm">{text.intro}</Text>
      {!canErase && <Text size="sm">{text.ownerOnly}</Text>}
      {scheduledFor && (
        <Text size="sm" fw={700}>
          {text.scheduled} <Instant iso={scheduledFor} />.
        </Text>
      )}
      {canErase && !scheduledFor && (
        <Button color="red" onClick={() => setConfirming(true)}>
          {text.request}
        </Button>
      )}
      {canErase && scheduledFor && (
        <Button variant="default" onClick={() => cancel.mutate()} loading={cancel.isPending}>
          {accountMessages.banner.cancel}
        </Button>
      )}
      {cancel.error && <ErrorAlert error={cancel.error} />}
      <ConfirmModal
        opened={confirming}
        title={text.confirmTitle}
        confirmLabel={text.confirmLabel}
        typed={text.typed}
        busy={request.isPending}
        onConfirm={() => request.mutate()}
        onClose={() => setConfirming(false)}
      >
        {text.confirmBody}
        {request.error && <ErrorAlert error={request.error} />}
      </ConfirmModal>
    </Stack>
  );
}
