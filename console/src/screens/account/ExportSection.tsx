import { Button, List, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { exportAvailability } from '../../logic/export-availability';
import { accountMessages } from '../../messages/account';

const text = accountMessages.export;
const LAST_EXPORT_KEY = ['audit-events', 'account.exported', 'last'];

/** Hands `blob` to the browser as a download named `fileName`. */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The account export (`GET /api/account/export`, permission `export`, docs/account.md): both of
 * its limits shown before the click, one per 7 days (from the last `account.exported` audit
 * event) and the plan's per month (`current_team.plan` of `GET /api/me`), then the download.
 */
export function ExportSection({ plan }: { plan: Schemas['PlanSummary'] }) {
  const queryClient = useQueryClient();
  const last = useQuery({
    queryKey: LAST_EXPORT_KEY,
    queryFn: () =>
      unwrap(api().GET('/api/audit-events', { params: { query: { action: 'account.exported', limit: 1 } } })),
  });
  const download = useMutation({
    mutationFn: () => unwrap(api().GET('/api/account/export', { parseAs: 'blob' })),
    onSuccess: async (blob) => {
      saveFile(blob, text.fileName);
      notifications.show({ color: 'green', message: text.downloaded });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LAST_EXPORT_KEY }),
        queryClient.invalidateQueries({ queryKey: ['me'] }),
      ]);
    },
  });
  const lastAt = last.data?.events[0]?.occurred_at ?? null;
  const availability = last.data
    ? exportAvailability(lastAt, plan.usage.exports_this_month, plan.limits.exports_per_month, Date.now())
    : null;
  return (
    <Stack component="section" aria-labelledby="account-export-title" gap="xs" align="flex-start">
      <Title order={2} size="h3" id="account-export-title">
        {text.title}
      </Title>
      <Text size="sm">{text.intro}</Text>
      <List size="sm" aria-label={text.title}>
        <List.Item>{text.weeklyRule}</List.Item>
        <List.Item>
          {text.monthlyRule(plan.name, plan.limits.exports_per_month, plan.usage.exports_this_month)}
        </List.Item>
        <List.Item>
          {text.lastExport} {lastAt ? <Instant iso={lastAt} /> : text.never}
        </List.Item>
      </List>
      {last.error && <ErrorAlert error={last.error} />}
      {availability && (
        <Text size="sm" fw={700} data-testid="export-availability">
          {availability.state === 'available' ? (
            text.availableNow
          ) : (
            <>
              {availability.state === 'weekly' ? text.weeklyWait : text.monthlyWait}{' '}
              <Instant iso={availability.nextAt} />.
            </>
          )}
        </Text>
      )}
      <Button
        onClick={() => download.mutate()}
        loading={download.isPending}
        disabled={availability?.state !== 'available'}
      >
        {text.download}
      </Button>
      {download.error && <ErrorAlert error={download.error} />}
    </Stack>
  );
}
