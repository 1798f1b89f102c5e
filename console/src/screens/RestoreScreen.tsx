import {
  Button,
  Checkbox,
  Group,
  List,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap, type Schemas } from '../api/client';
import { ConfirmModal } from '../components/ConfirmModal';
import { ErrorAlert } from '../components/ErrorAlert';
import { SeverityBadge } from '../components/SeverityBadge';
import { Instant } from '../components/Instant';
import { connectionName, formatInstant } from '../logic/format';
import { crossOrgMapping, EMPTY_MAPPING, type MappingForm } from '../logic/cross-org';
import { restoreMessages as text } from '../messages/restore';
import { useCan } from '../session/me';
import { WaitingForApproval } from './approvals/WaitingForApproval';
import { CrossOrgTables, CrossOrgTarget } from './CrossOrgTarget';
import { ScreenHeading } from '../components/ScreenHeading';

type Mode = 'selective' | 'full';
const csv = (value: string | null) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];

/**
 * Restore (docs/restore.md): choose the backup, types and objects, read the dry run first, then
 * confirm; full and prune restores need the connection's name typed.
 */
export function RestoreScreen() {
  const canRestore = useCan('restore');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const backupId = params.get('backupId') || null;
  const [mode, setMode] = useState<Mode>('selective');
  const [types, setTypes] = useState<string[]>(csv(params.get('resourceTypes')));
  const [ids, setIds] = useState(params.get('resourceIds') ?? '');
  const [prune, setPrune] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [targetChoice, setTargetChoice] = useState<{ value: string; label: string } | null>(null);
  const target = targetChoice?.value ?? null;
  const [mappingForm, setMappingForm] = useState<MappingForm>(EMPTY_MAPPING);
  const completed = useQuery({
    queryKey: ['backups', 'completed'],
    queryFn: () =>
      unwrap(api().GET('/api/backup/list', { params: { query: { status: 'completed', limit: 200 } } })),
  });
  const backup = completed.data?.backups.find((b) => b.id === backupId);
  const resourceIds = csv(ids);
  const selection =
    mode === 'full'
      ? {}
      : { ...(types.length ? { resourceTypes: types } : {}), ...(resourceIds.length ? { resourceIds } : {}) };
  // Into another org: the target and its mapping (docs/restore.md "Into another org").
  // The dry run is asked again once typing in the mapping pauses, not at every key.
  const [settledMapping] = useDebouncedValue(mappingForm, 400);
  const mapping = target ? crossOrgMapping(settledMapping) : undefined;
  const into = target ? { targetConnectionId: target, ...(mapping ? { mapping } : {}) } : {};
  const preview = useQuery({
    queryKey: ['restore-preview', backupId, selection, into],
    // Asked for whatever the role: a role without `restore` reads the API's 403 here.
    enabled: !!backupId,
    queryFn: () => (target ? previewInto(backupId!, selection, into) : loadPreview(backupId!, selection)),
  });
  const run = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/restore', {
          body: {
            backupId: backupId!,
            mode,
            ...selection,
            ...into,
            prune: prune && resourceIds.length === 0,
            activateUsers: false,
            enforce: false,
          },
        }),
      ),
    onSuccess: (accepted) => {
      if ('restoreId' in accepted && accepted.restoreId) navigate(`/restores/${accepted.restoreId}`);
      setConfirming(false);
    },
  });
  // Writing into another org names that org's connection; a full or pruning restore its own.
  const typed = targetChoice
    ? targetChoice.label
    : mode === 'full' || prune
      ? backup
        ? connectionName(backup.connection)
        : text.typedFallback
      : undefined;
  // The two modes side by side need about 440 px: on a phone they stack.
  const modeOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  const selectionMissing = mode === 'selective' && types.length === 0;
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      <Select
        label={text.backup}
        data={(completed.data?.backups ?? []).map((b) => ({
          value: b.id,
          label: text.backupOption(connectionName(b.connection), formatInstant(b.started_at)),
        }))}
        value={backupId}
        onChange={(value) => {
          setTargetChoice(null);
          setParams(value ? { backupId: value } : {});
        }}
        w={{ base: '100%', sm: 420 }}
      />
      {!canRestore && <Text>{text.cannotRestore}</Text>}
      {!canRestore && preview.error && <ErrorAlert error={preview.error} />}
      {backup && canRestore && (
        <>
          <SegmentedControl
            aria-label={text.mode}
            orientation={modeOrientation}
            value={mode}
            onChange={(value) => setMode(value as Mode)}
            data={[
              { value: 'selective', label: text.selective },
              { value: 'full', label: text.full },
            ]}
          />
          {mode === 'selective' && (
            <Group align="flex-end">
              <MultiSelect
                label={text.types}
                data={backup.resource_types}
                value={types}
                onChange={setTypes}
                searchable
                w={{ base: '100%', sm: 420 }}
              />
              <TextInput
                label={text.ids}
                value={ids}
                onChange={(event) => setIds(event.currentTarget.value)}
                w={{ base: '100%', sm: 420 }}
              />
            </Group>
          )}
          <CrossOrgTarget
            backupConnection={{ id: backup.connection_id, provider: backup.connection.provider }}
            target={target}
            onTarget={setTargetChoice}
            mapping={mappingForm}
            onMapping={setMappingForm}
          />
          <Checkbox
            label={text.prune}
            checked={prune}
            disabled={resourceIds.length > 0}
            onChange={(event) => setPrune(event.currentTarget.checked)}
          />
          {preview.error && <ErrorAlert error={preview.error} />}
          {preview.isFetching && <Text>{text.previewing}</Text>}
          {preview.data && <PreviewTables preview={preview.data} />}
          {preview.data?.crossOrg && <CrossOrgTables crossOrg={preview.data.crossOrg} />}
          {run.error && <ErrorAlert error={run.error} />}
          {run.data && 'approval' in run.data && run.data.approval && (
            <WaitingForApproval approvalId={run.data.approval.id} />
          )}
          <Group>
            <Button
              color="red"
              disabled={!preview.data || selectionMissing}
              onClick={() => setConfirming(true)}
            >
              {text.restore}
            </Button>
          </Group>
          <ConfirmModal
            opened={confirming}
            title={mode === 'full' ? text.confirmFull : text.confirmSelective}
            confirmLabel={text.confirm}
            typed={typed}
            busy={run.isPending}
            onConfirm={() => run.mutate()}
            onClose={() => setConfirming(false)}
          >
            {text.writesTo(preview.data?.crossOrg?.targetOrgUrl ?? backup.connection.org_url)}
            {prune && text.pruneWarning}
          </ConfirmModal>
        </>
      )}
    </Stack>
  );
}

/** The dry run, waiting for it when the API queued it (202, polled every second). */
async function loadPreview(
  backupId: string,
  selection: { resourceTypes?: string[]; resourceIds?: string[] },
): Promise<Schemas['RestorePreview']> {
  const query = { backupId, ...selection };
  const answer = await unwrap(
    api().GET('/api/restore', { params: { query, header: { Prefer: 'respond-async' } } }),
  );
  if (!('previewId' in answer)) return answer;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const run = await unwrap(
      api().GET('/api/restore/previews/{previewId}', { params: { path: { previewId: answer.previewId } } }),
    );
    if (run.status === 'completed' && run.result) return run.result;
    if (run.status === 'failed') throw new Error(run.error_message ?? text.previewFailed);
  }
}

/**
 * The dry run into another org with a mapping: POST /api/restore without `mode` (a GET carries
 * no mapping), always answered in the request (docs/restore.md "Into another org").
 */
async function previewInto(
  backupId: string,
  selection: { resourceTypes?: string[]; resourceIds?: string[] },
  into: { targetConnectionId?: string; mapping?: Schemas['CrossOrgMapping'] },
): Promise<Schemas['RestorePreview']> {
  const answer = await unwrap(
    api().POST('/api/restore', {
      body: { backupId, ...selection, ...into, prune: false, activateUsers: false, enforce: false },
    }),
  );
  if (!('preview' in answer)) throw new Error(text.previewFailed);
  return answer;
}

/** The dry run's rows per type and its prune candidates (also on an approval's page). */
export function PreviewTables({ preview }: { preview: Schemas['RestorePreview'] }) {
  return (
    <Stack>
      <Title order={2} size="h3">
        {text.preview.title}
      </Title>
      <Text size="sm">
        {text.preview.fromBefore(preview.sourceOrgUrl)}
        <Instant iso={preview.collectedAt} />
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label={text.preview.tableLabel}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{text.preview.columns.type}</Table.Th>
              <Table.Th>{text.preview.columns.create}</Table.Th>
              <Table.Th>{text.preview.columns.update}</Table.Th>
              <Table.Th>{text.preview.columns.unchanged}</Table.Th>
              <Table.Th>{text.preview.columns.prune}</Table.Th>
              <Table.Th>{text.preview.columns.notes}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.preview.map((row) => (
              <Table.Tr key={row.resourceType}>
                <Table.Td>{row.resourceType}</Table.Td>
                <Table.Td>{row.create}</Table.Td>
                <Table.Td>{row.update}</Table.Td>
                <Table.Td>{row.skip}</Table.Td>
                <Table.Td>{row.pruneCandidates}</Table.Td>
                <Table.Td>{row.notes.join(' ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {preview.prune.length > 0 && (
        <>
          <Title order={3} size="h4">
            {text.preview.pruned}
          </Title>
          <List>
            {preview.prune.map((item) => (
              <List.Item key={`${item.resourceType}/${item.id}`}>
                <SeverityBadge severity={item.severity} /> {item.resourceType} {item.name ?? item.id}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {preview.notRestorable.length > 0 && (
        <>
          <Title order={3} size="h4">
            {text.preview.notRestorable}
          </Title>
          <List>
            {preview.notRestorable.map((item) => (
              <List.Item key={item.resourceType}>
                <strong>{item.resourceType}</strong> ({item.items.length}): {item.why}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}
