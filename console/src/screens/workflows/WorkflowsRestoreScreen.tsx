import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { JobProgress } from '../../components/JobProgress';
import { connectionName } from '../../logic/format';
import { workflowsMessages as text } from '../../messages/workflows';
import { ScreenHeading } from '../../components/ScreenHeading';

const Runbook = lazy(() => import('./Runbook'));

/**
 * A Workflows restore (GET /api/restore/{restoreId}, `restore`): its progress, then the
 * re-import package's download link (signed, short-lived: each poll signs a fresh one) and the
 * package's runbook, read from the package.
 */
export function WorkflowsRestoreScreen() {
  const { id = '' } = useParams();
  const detail = useQuery({
    queryKey: ['restore', id, 'package'],
    queryFn: () =>
      unwrap(
        api().GET('/api/restore/{restoreId}', { params: { path: { restoreId: id }, query: { limit: 1 } } }),
      ),
    refetchInterval: (q) =>
      ['pending', 'running'].includes(q.state.data?.restore.status ?? 'pending') ? 1000 : false,
  });
  if (detail.error) return <ErrorAlert error={detail.error} />;
  const restore = detail.data?.restore;
  if (!restore) return <Text>{text.restore.loading}</Text>;
  const t = text.restore;
  const done = !['pending', 'running'].includes(restore.status);
  return (
    <Stack>
      <ScreenHeading title={t.title(connectionName(restore.connection))} />
      <JobProgress
        label={t.progress}
        status={restore.status}
        summary={
          <>
            {t.summary} <Instant iso={restore.started_at ?? restore.created_at} />
          </>
        }
        pct={restore.progress_pct}
        message={restore.error_message ?? restore.progress_message}
      />
      {done && !restore.package && <Text>{t.notWorkflows}</Text>}
      {restore.package && (
        <>
          <Text>
            <Anchor href={restore.package.url} download>
              {t.download}
            </Anchor>
          </Text>
          <Text size="sm">
            {t.expires} <Instant iso={restore.package.expires_at} />. {t.contents}
          </Text>
          <Title order={2} size="h3">
            {t.runbook}
          </Title>
          <Suspense fallback={<Text>{t.runbookLoading}</Text>}>
            <Runbook url={restore.package.url} />
          </Suspense>
        </>
      )}
    </Stack>
  );
}
