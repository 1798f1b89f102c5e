import { Anchor, Button, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import {
  preferenceChanges,
  preferenceDraft,
  type Preference,
  type PreferenceDraft,
} from '../../logic/notifications';
import { notificationsMessages } from '../../messages/notifications';
import { ScreenHeading } from '../../components/ScreenHeading';

const text = notificationsMessages.preferences;
const PREFERENCES_KEY = ['notifications', 'preferences'] as const;

/**
 * The signed-in member's notification preferences per type, in the console and by e-mail
 * (`GET` and `PATCH /api/notifications/preferences`). A default that is neither on nor off
 * (`in_app: "first"`, `email: "critical"`) shows as a mixed checkbox with what it means; ticking
 * it sets the type on or off from then on. Only what changed is sent. The address of this screen
 * is the one notification e-mails name in `List-Unsubscribe` (docs/notifications.md).
 */
export function PreferencesScreen() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PreferenceDraft | null>(null);
  const saved = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: () => unwrap(api().GET('/api/notifications/preferences')),
  });
  const save = useMutation({
    mutationFn: (preferences: ReturnType<typeof preferenceChanges>) =>
      unwrap(api().PATCH('/api/notifications/preferences', { body: { preferences } })),
    onSuccess: (answer) => {
      queryClient.setQueryData(PREFERENCES_KEY, answer);
      setDraft(null);
      toasts.show({ color: 'green', message: text.saved });
    },
  });
  const rows = saved.data?.preferences ?? [];
  const current = draft ?? preferenceDraft(rows);
  const set = (type: string, field: 'in_app' | 'email', value: boolean) =>
    setDraft({ ...current, [type]: { ...current[type], [field]: value } });
  const submit = () => {
    const changes = preferenceChanges(rows, current);
    if (changes.length === 0) toasts.show({ message: text.unchanged });
    else save.mutate(changes);
  };
  return (
    <Stack>
      <ScreenHeading title={text.title} intro={text.intro} />
      <Anchor component={Link} to="/notifications">
        {text.back}
      </Anchor>
      {saved.error && <ErrorAlert error={saved.error} />}
      {!saved.data && !saved.error && <Text>{text.loading}</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table aria-label={text.table} verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.type}</Table.Th>
                <Table.Th>{text.inApp}</Table.Th>
                <Table.Th>{text.email}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <PreferenceRow key={row.type} row={row} value={current[row.type] ?? row} onChange={set} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {save.error && <ErrorAlert error={save.error} />}
      {rows.length > 0 && (
        <Group>
          <Button onClick={submit} loading={save.isPending}>
            {text.save}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** One type's row: its name (and whether it follows the defaults) and its two checkboxes. */
function PreferenceRow({
  row,
  value,
  onChange,
}: {
  row: Preference;
  value: Pick<Preference, 'in_app' | 'email'>;
  onChange: (type: string, field: 'in_app' | 'email', value: boolean) => void;
}) {
  const name = notificationsMessages.types[row.type] ?? row.type;
  return (
    <Table.Tr>
      <Table.Td>
        <Text>{name}</Text>
        {row.default && (
          <Text size="xs" c="dimmed">
            {text.isDefault}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={text.inAppOf(name)}
          checked={value.in_app === true}
          indeterminate={value.in_app === 'first'}
          description={value.in_app === 'first' ? text.first : undefined}
          onChange={(event) => onChange(row.type, 'in_app', event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={text.emailOf(name)}
          checked={value.email === true}
          indeterminate={value.email === 'critical'}
          description={value.email === 'critical' ? text.critical : undefined}
          onChange={(event) => onChange(row.type, 'email', event.currentTarget.checked)}
        />
      </Table.Td>
    </Table.Tr>
  );
}
