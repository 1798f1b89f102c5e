import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { JobProgress } from '../../components/JobProgress';
import { formatDuration } from '../../logic/duration';
import { connectionName, formatBytes } from '../../logic/format';
import { drillsMessages as text } from '../../messages/drills';
import { ScreenHeading } from '../../components/ScreenHeading';

/**
 * One restore drill (GET /api/restore-drills/{drillId}): its progress while it runs (polled each
 * second), then its outcome, what failed, or what was read (parts, records, bytes, duration).
 */
export function DrillDetailScreen() {
  const { id = '' } = useParams();
  const detail = useQuery({
    queryKey: ['restore-drill', id],
    queryFn: () => unwrap(api().GET('/api/restore-drills/{drillId}', { params: { path: { drillId: id } } })),
    refetchInterval: (q) =>
      ['pending', 'running'].includes(q.state.data?.drill.status ?? 'pending') ? 1000 : false,
  });
  if (detail.error) return <ErrorAlert error={detail.error} />;
  const drill = detail.data?.drill;
  if (!drill) return <Text>{text.detail.loading}</Text>;
  const t = text.detail;
  return (
    <Stack>
      <ScreenHeading title={t.title(connectionName(drill.connection))} />
      <JobProgress
        label={t.progress}
        status={drill.status}
        summary={
          <>
            {t.summary(drill.triggered_by)} <Instant iso={drill.started_at ?? drill.created_at} />
          </>
        }
        pct={drill.progress_pct}
        message={drill.error_message ?? drill.progress_message}
      />
      <Group>
        <Text fw={700}>{t.outcome}</Text>
        <Badge
          size="lg"
          variant="light"
          color={drill.outcome === 'passed' ? 'green' : drill.outcome === 'failed' ? 'red' : 'blue'}
        >
          {drill.outcome === 'passed' ? t.passed : drill.outcome === 'failed' ? t.failed : t.running}
        </Badge>
      </Group>
      <Text>
        {t.backup}:{' '}
        {drill.backup_id ? <Link to={`/backups/${drill.backup_id}`}>{t.openBackup}</Link> : t.backupDeleted}
      </Text>
      {drill.backup_sha256 && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t.manifest}: <code>{drill.backup_sha256}</code>
        </Text>
      )}
      {drill.result && (
        <section aria-label={t.result}>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure label={t.parts} value={drill.result.parts.toLocaleString('en')} />
            <Figure label={t.records} value={drill.result.records.toLocaleString('en')} />
            <Figure label={t.bytes} value={formatBytes(drill.result.bytes)} />
            <Figure label={t.duration} value={formatDuration(drill.result.durationMs)} />
          </SimpleGrid>
        </section>
      )}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
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
