import {
  Button,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { useConnectionChoices } from '../api/connection-choices';
import { ErrorAlert } from '../components/ErrorAlert';
import { Instant } from '../components/Instant';
import { StatusBadge } from '../components/StatusBadge';
import { backupsMessages as text } from '../messages/backups';
import { useCan } from '../session/me';
import { connectionName, formatBytes, formatObjectCount, formatPercent } from '../logic/format';
import { ScreenHeading } from '../components/ScreenHeading';

const PAGE_SIZE = 25;
type Status = 'running' | 'completed' | 'failed';

/** Backups: the spec's filters (connection, status, free text), the stats, and pages of 25. */
export function BackupsScreen() {
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  // Listing connections takes `manage connections`; other roles choose among those their backups name.
  const { choices: targets } = useConnectionChoices();
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    includeStats: true,
    ...(connectionId ? { connectionId } : {}),
    ...(status ? { status } : {}),
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
  };
  const backups = useQuery({
    queryKey: ['backups', 'list', query],
    queryFn: () => unwrap(api().GET('/api/backup/list', { params: { query } })),
    placeholderData: keepPreviousData,
    // A running backup's row updates while it runs.
    refetchInterval: (q) => (q.state.data?.backups.some((b) => b.status === 'running') ? 2000 : false),
  });
  const stats = backups.data?.stats;
  const pages = Math.max(1, Math.ceil((backups.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      <RunBackup targets={targets} />
      <Group align="flex-end">
        <Select
          label={text.connection}
          clearable
          placeholder={text.allConnections}
          w={{ base: '100%', sm: 240 }}
          data={targets}
          value={connectionId}
          onChange={(value) => {
            setConnectionId(value);
            setPage(1);
          }}
        />
        <Select
          label={text.status}
          clearable
          placeholder={text.anyStatus}
          w={{ base: '100%', sm: 180 }}
          data={['running', 'completed', 'failed']}
          value={status}
          onChange={(value) => {
            setStatus(value as Status | null);
            setPage(1);
          }}
        />
        <TextInput
          label={text.search}
          placeholder={text.searchPlaceholder}
          w={{ base: '100%', sm: 280 }}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      {stats && (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Stat label={text.stats.backups} value={String(stats.totalBackups)} />
          <Stat label={text.stats.successRate} value={formatPercent(stats.successRate)} />
          <Stat label={text.stats.failed} value={String(stats.failedBackups)} />
          <Stat label={text.stats.totalSize} value={formatBytes(stats.totalSize)} />
        </SimpleGrid>
      )}
      {backups.error && <ErrorAlert error={backups.error} />}
      {backups.data && backups.data.backups.length === 0 && <Text>{text.noneMatch}</Text>}
      {!!backups.data?.backups.length && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label={text.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.columns.started}</Table.Th>
                <Table.Th>{text.columns.connection}</Table.Th>
                <Table.Th>{text.columns.status}</Table.Th>
                <Table.Th>{text.columns.kind}</Table.Th>
                <Table.Th>{text.columns.objects}</Table.Th>
                <Table.Th>{text.columns.size}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {backups.data.backups.map((backup) => (
                <Table.Tr key={backup.id}>
                  <Table.Td>
                    <Link to={`/backups/${backup.id}`}>
                      <Instant iso={backup.started_at} focusable={false} />
                    </Link>
                  </Table.Td>
                  <Table.Td>{connectionName(backup.connection)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={backup.status} />
                    {backup.status === 'running' && ` ${text.runningPct(backup.progress_pct)}`}
                  </Table.Td>
                  <Table.Td>{backup.kind}</Table.Td>
                  <Table.Td>{formatObjectCount(backup.resource_counts)}</Table.Td>
                  <Table.Td>{formatBytes(backup.size)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pagination
        total={pages}
        value={page}
        onChange={setPage}
        getControlProps={(control) => ({ 'aria-label': text.pagination.control(control) })}
        getItemProps={(p) => ({ 'aria-label': text.pagination.page(p) })}
      />
    </Stack>
  );
}

/**
 * Starts a backup of a chosen connection, for roles with `run backups` (spec "Roles"); an
 * operator may not list connections, so the choice comes from `targets`. Hidden for other roles.
 */
function RunBackup({ targets }: { targets: Array<{ value: string; label: string }> }) {
  const canRun = useCan('run backups');
  const navigate = useNavigate();
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: (id: string) => unwrap(api().POST('/api/backup/run', { body: { connectionId: id } })),
    onSuccess: ({ backupId }) => navigate(`/backups/${backupId}`),
  });
  if (!canRun) return null;
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <Select
          label={text.run.connection}
          placeholder={targets.length ? text.run.choose : text.run.noConnection}
          w={{ base: '100%', sm: 280 }}
          data={targets}
          value={connectionId}
          onChange={setConnectionId}
        />
        <Button
          disabled={!connectionId}
          loading={run.isPending}
          onClick={() => connectionId && run.mutate(connectionId)}
        >
          {text.run.run}
        </Button>
      </Group>
      {run.error && <ErrorAlert error={run.error} />}
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
}
