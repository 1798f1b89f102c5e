import { Button, Group, List, MultiSelect, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap, type Schemas } from '../api/client';
import { ChangedBy } from '../components/ChangedBy';
import { ConfirmModal } from '../components/ConfirmModal';
import { ErrorAlert } from '../components/ErrorAlert';
import { Instant } from '../components/Instant';
import { connectionName } from '../logic/format';
import { groupUndoChanges, undoActors } from '../logic/undo';
import { undoMessages as text } from '../messages/undo';
import { useCan } from '../session/me';
import { WaitingForApproval } from './approvals/WaitingForApproval';
import { ScreenHeading } from '../components/ScreenHeading';

const csv = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);

/**
 * Undo since a clean backup (`/undo?backupId=&resourceIds=&resourceTypes=&field=`, docs/restore.md
 * "Undo since a clean backup"): filters by actor, period and type; the dry run grouped by action
 * with who changed each object; then the undo, confirmed by typing the connection's name. A
 * team requiring two-person approval gets the pending request instead of a restore.
 */
export function UndoScreen() {
  const canRestore = useCan('restore');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const backupId = params.get('backupId') ?? '';
  const resourceIds = csv(params.get('resourceIds'));
  // A revert of some fields of one object (from a compare row's field): JSON Pointers.
  const fieldPaths = resourceIds.length === 1 ? params.getAll('field') : [];
  const [types, setTypes] = useState<string[]>(csv(params.get('resourceTypes')));
  const [actor, setActor] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [confirming, setConfirming] = useState(false);
  const backup = useQuery({
    queryKey: ['backups', backupId],
    queryFn: () => unwrap(api().GET('/api/backup/{id}', { params: { path: { id: backupId } } })),
    enabled: !!backupId,
  });
  // The objects asked for (a revert from compare): the actor choices' dry run keeps them too.
  const base = { backupId, ...(resourceIds.length ? { resourceIds } : {}) };
  const filters = {
    ...base,
    ...(types.length ? { resourceTypes: types } : {}),
    ...(actor ? { actor } : {}),
    ...(since.trim() ? { since: since.trim() } : {}),
    ...(until.trim() ? { until: until.trim() } : {}),
  };
  const preview = useQuery({
    queryKey: ['undo-preview', filters],
    enabled: !!backupId && canRestore,
    queryFn: () => loadUndoPreview(filters),
  });
  // The actor choices come from the unfiltered dry run, so choosing one keeps the others listed
  // (the same query as `preview` until a filter is set: asked once).
  const everyone = useQuery({
    queryKey: ['undo-preview', base],
    enabled: !!backupId && canRestore,
    queryFn: () => loadUndoPreview(base),
  });
  const run = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/restore', {
          // An undo deletes exactly what was added since the backup: it refuses `prune`.
          body: {
            ...filters,
            ...(fieldPaths.length
              ? { fields: fieldPaths.map((path) => ({ resourceId: resourceIds[0], path })) }
              : {}),
            mode: 'undo',
            activateUsers: false,
            enforce: false,
          } as Schemas['RunRestoreDto'],
        }),
      ),
    onSuccess: (accepted) => {
      if ('restoreId' in accepted && accepted.restoreId) navigate(`/restores/${accepted.restoreId}`);
      setConfirming(false);
    },
  });
  const b = backup.data?.backup;
  const dryRun = preview.data;
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      {backup.error && <ErrorAlert error={backup.error} />}
      {b && (
        <Text>
          {text.since(connectionName(b.connection))}
          <Instant iso={b.started_at} />
        </Text>
      )}
      {!canRestore && <Text>{text.cannotUndo}</Text>}
      {b && canRestore && (
        <>
          <Group align="flex-end">
            <Select
              label={text.actor}
              placeholder={text.anyActor}
              clearable
              data={undoActors(everyone.data?.changes ?? [])}
              value={actor}
              onChange={setActor}
              w={{ base: '100%', sm: 320 }}
            />
            <MultiSelect
              label={text.types}
              placeholder={text.anyType}
              data={b.resource_types}
              value={types}
              onChange={setTypes}
              searchable
              w={{ base: '100%', sm: 320 }}
            />
            <TextInput
              label={text.from}
              value={since}
              onChange={(event) => setSince(event.currentTarget.value)}
              w={{ base: '100%', sm: 240 }}
            />
            <TextInput
              label={text.until}
              value={until}
              onChange={(event) => setUntil(event.currentTarget.value)}
              w={{ base: '100%', sm: 240 }}
            />
          </Group>
          {resourceIds.length > 0 && <Text size="sm">{text.ids(resourceIds)}</Text>}
          {fieldPaths.length > 0 && <Text size="sm">{text.fields(fieldPaths)}</Text>}
          {preview.error && <ErrorAlert error={preview.error} />}
          {preview.isFetching && <Text>{text.previewing}</Text>}
          {dryRun && !dryRun.attribution.available && (
            <Text size="sm">{text.noAttribution(dryRun.attribution.reason ?? '')}</Text>
          )}
          {dryRun && (
            <>
              <Text fw={600}>{dryRun.total ? text.total(dryRun.total) : text.nothing}</Text>
              {groupUndoChanges(dryRun.changes).map((group) => (
                <Stack key={group.action} gap={4}>
                  <Title order={2} size="h4">
                    {text.groupTitle(text.actions[group.action], dryRun.totals[group.action])}
                  </Title>
                  <List aria-label={text.groupLabel(text.actions[group.action])} spacing={4}>
                    {group.changes.map((change) => (
                      <List.Item key={`${change.resourceType}/${change.id}`}>
                        <Text size="sm" span fw={600}>
                          {change.resourceType}
                        </Text>{' '}
                        <Text size="sm" span>
                          {change.name ?? change.id}
                        </Text>
                        <ChangedBy change={change} />
                      </List.Item>
                    ))}
                  </List>
                </Stack>
              ))}
            </>
          )}
          {run.data && 'approval' in run.data && run.data.approval && (
            <WaitingForApproval approvalId={run.data.approval.id} />
          )}
          <Group>
            <Button color="red" disabled={!dryRun?.total} onClick={() => setConfirming(true)}>
              {text.undo}
            </Button>
          </Group>
          <ConfirmModal
            opened={confirming}
            title={text.confirmTitle}
            confirmLabel={text.confirm}
            typed={connectionName(b.connection)}
            busy={run.isPending}
            onConfirm={() => run.mutate()}
            onClose={() => setConfirming(false)}
          >
            {text.writesTo(b.connection.org_url, dryRun?.total ?? 0)}
            {run.error && <ErrorAlert error={run.error} />}
          </ConfirmModal>
        </>
      )}
    </Stack>
  );
}

/** The undo's dry run, waiting for it when the API queued it (202, polled every second). */
async function loadUndoPreview(query: {
  backupId: string;
  resourceIds?: string[];
  resourceTypes?: string[];
  actor?: string;
  since?: string;
  until?: string;
}): Promise<Schemas['UndoPreview']> {
  const answer = await unwrap(
    api().GET('/api/restore/undo', { params: { query, header: { Prefer: 'respond-async' } } }),
  );
  if (!('previewId' in answer)) return answer;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const run = await unwrap(
      api().GET('/api/restore/previews/{previewId}', { params: { path: { previewId: answer.previewId } } }),
    );
    if (run.status === 'completed' && run.undo_result) return run.undo_result;
    if (run.status === 'failed') throw new Error(run.error_message ?? text.previewFailed);
  }
}
