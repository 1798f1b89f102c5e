import { Alert, Anchor, Button, Checkbox, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Panel } from '../../components/Panel';
import { approvalsMessages } from '../../messages/approvals';

const text = approvalsMessages.settings;
type Settings = Omit<Schemas['ApprovalSettings'], 'updated_at'>;

/**
 * The team's two-person approval setting (GET/PUT /api/team/approval-settings, docs/approvals.md).
 * Turning it on applies at once; turning it or a switch off answers 202 with a request that a
 * second member approves, shown here with a link.
 */
export function ApprovalSettingsSection() {
  const queryClient = useQueryClient();
  const saved = useQuery({
    queryKey: ['approval-settings'],
    queryFn: () => unwrap(api().GET('/api/team/approval-settings')),
  });
  const [draft, setDraft] = useState<Settings | null>(null);
  useEffect(() => {
    if (!saved.data) return;
    // The body takes the switches only; `updated_at` is the server's.
    const { updated_at: _updatedAt, ...settings } = saved.data.settings;
    setDraft(settings);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: (settings: Settings) => unwrap(api().PUT('/api/team/approval-settings', { body: settings })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['approval-settings'] }),
  });
  if (saved.error) return <ErrorAlert error={saved.error} />;
  if (!draft) return null;
  const set = (patch: Partial<Settings>) => setDraft({ ...draft, ...patch });
  const held = save.data && 'approval' in save.data ? save.data.approval : null;
  return (
    <Panel heading={text.heading}>
      <Text size="sm">{text.intro}</Text>
      <Stack gap="xs">
        <Checkbox
          label={text.enabled}
          checked={draft.enabled}
          onChange={(event) => set({ enabled: event.currentTarget.checked })}
        />
        <Checkbox
          label={text.backupDelete}
          checked={draft.backup_delete}
          onChange={(event) => set({ backup_delete: event.currentTarget.checked })}
        />
        <Checkbox
          label={text.connectionDelete}
          checked={draft.connection_delete}
          onChange={(event) => set({ connection_delete: event.currentTarget.checked })}
        />
        <Checkbox
          label={text.accountDelete}
          checked={draft.account_delete}
          onChange={(event) => set({ account_delete: event.currentTarget.checked })}
        />
        <NumberInput
          label={text.expiry}
          min={1}
          max={168}
          value={draft.expiry_hours}
          onChange={(value) => set({ expiry_hours: typeof value === 'number' ? value : draft.expiry_hours })}
          w={{ base: '100%', sm: 260 }}
        />
      </Stack>
      {save.error && <ErrorAlert error={save.error} />}
      {held && (
        <Alert color="orange" title={approvalsMessages.waiting.title}>
          {text.held}{' '}
          <Anchor component={Link} c="inherit" underline="always" to={`/approvals/${held.id}`}>
            {text.openApproval}
          </Anchor>
        </Alert>
      )}
      {save.isSuccess && !held && <Text size="sm">{text.saved}</Text>}
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate(draft)}>
          {text.save}
        </Button>
      </Group>
    </Panel>
  );
}
