import { Button, FileInput, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useConnectionChoices } from '../../api/connection-choices';
import { Panel } from '../../components/Panel';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { StatusBadge } from '../../components/StatusBadge';
import { formatInstant, formatObjectCount } from '../../logic/format';
import { workflowsMessages as text } from '../../messages/workflows';
import { useCan } from '../../session/me';
import { ScreenHeading } from '../../components/ScreenHeading';

/** Rows of backups and packages shown per connection. */
const ROWS = 25;

/** An Okta Workflows connection. */
const isWorkflows = (connection: { provider: string }) => connection.provider === 'okta_workflows';

/**
 * Okta Workflows (docs/okta-workflows.md): upload a `.folder` or `.flow` exported by hand as a
 * backup of a Workflows connection (`run backups`), and build and open re-import packages
 * (`restore`). The connections offered are the team's Okta Workflows ones: listed where the role
 * may (`manage connections`), else those its backups name.
 */
export function WorkflowsScreen() {
  const canRun = useCan('run backups');
  const canRestore = useCan('restore');
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const { choices: targets, error: choicesError } = useConnectionChoices(isWorkflows);
  return (
    <Stack>
      <ScreenHeading title={text.title} intro={text.intro} />
      <Select
        w={{ base: '100%', sm: 420 }}
        label={text.connection}
        placeholder={targets.length ? text.connectionPlaceholder : text.noConnection}
        data={targets}
        value={connectionId}
        onChange={setConnectionId}
      />
      {choicesError ? <ErrorAlert error={choicesError} /> : null}
      {connectionId && canRun && <UploadExport connectionId={connectionId} />}
      {connectionId && canRestore && <Packages connectionId={connectionId} />}
    </Stack>
  );
}

/** POST /api/connections/{id}/workflows/upload with the chosen file as the body, as it is. */
function UploadExport({ connectionId }: { connectionId: string }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      unwrap(
        api().POST('/api/connections/{id}/workflows/upload', {
          params: { path: { id: connectionId } },
          // The API reads the export file itself (at most 10 MB), not JSON around it.
          body: chosen as unknown as string,
          bodySerializer: (body) => body as unknown as BodyInit,
          headers: { 'Content-Type': 'application/octet-stream' },
        }),
      ),
    onSuccess: async () => {
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: ['backups'] });
    },
  });
  return (
    <Panel heading={text.upload.heading}>
      <Group align="flex-end">
        <FileInput
          w={{ base: '100%', sm: 420 }}
          label={text.upload.file}
          accept=".folder,.flow,application/json"
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            upload.reset();
          }}
          clearable
          clearButtonProps={{ 'aria-label': text.upload.clear }}
        />
        <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
          {text.upload.button}
        </Button>
      </Group>
      {upload.error && <ErrorAlert error={upload.error} />}
      {upload.data && (
        <Text role="status">
          {text.upload.done} <Link to={`/backups/${upload.data.backup.id}`}>{text.upload.openBackup}</Link>
        </Text>
      )}
    </Panel>
  );
}

/** The connection's completed backups, each with "Build package", and the packages built before. */
function Packages({ connectionId }: { connectionId: string }) {
  const navigate = useNavigate();
  const backupsQuery = { connectionId, status: 'completed' as const, limit: ROWS };
  const backups = useQuery({
    queryKey: ['backups', 'list', backupsQuery],
    queryFn: () => unwrap(api().GET('/api/backup/list', { params: { query: backupsQuery } })),
  });
  const history = useQuery({
    queryKey: ['restores', 'history', connectionId],
    queryFn: () =>
      unwrap(api().GET('/api/restore/history', { params: { query: { connectionId, limit: ROWS } } })),
  });
  const build = useMutation({
    mutationFn: (backupId: string) =>
      unwrap(
        api().POST('/api/restore', {
          body: { backupId, mode: 'full', prune: false, activateUsers: false, enforce: false },
        }),
      ),
    onSuccess: (accepted) => {
      if ('restoreId' in accepted && accepted.restoreId)
        navigate(`/workflows/restores/${accepted.restoreId}`);
    },
  });
  const t = text.packages;
  return (
    <Panel heading={t.heading}>
      {backups.error && <ErrorAlert error={backups.error} />}
      {build.error && <ErrorAlert error={build.error} />}
      {backups.data && backups.data.backups.length === 0 && <Text>{t.none}</Text>}
      {!!backups.data?.backups.length && (
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label={t.backups}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.started}</Table.Th>
                <Table.Th>{t.objects}</Table.Th>
                <Table.Th>{t.action}</Table.Th>
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
                  <Table.Td>{formatObjectCount(backup.resource_counts)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      aria-label={t.buildLabel(formatInstant(backup.started_at))}
                      loading={build.isPending && build.variables === backup.id}
                      onClick={() => build.mutate(backup.id)}
                    >
                      {t.build}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Title order={3} size="h5">
        {t.history}
      </Title>
      {history.error && <ErrorAlert error={history.error} />}
      {history.data && history.data.restores.length === 0 && <Text>{t.noHistory}</Text>}
      {!!history.data?.restores.length && (
        <Table.ScrollContainer minWidth={360}>
          <Table aria-label={t.history}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.made}</Table.Th>
                <Table.Th>{t.status}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.restores.map((restore) => (
                <Table.Tr key={restore.id}>
                  <Table.Td>
                    <Link to={`/workflows/restores/${restore.id}`}>
                      <Instant iso={restore.created_at} focusable={false} />
                    </Link>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={restore.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Panel>
  );
}
