import { Anchor, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { Panel } from '../../components/Panel';
import { cannotDecide, describeChanges } from '../../logic/approvals';
import { approvalsMessages as text } from '../../messages/approvals';
import { useCan, useMe } from '../../session/me';
import { PreviewTables } from '../RestoreScreen';
import { ApprovalStatusBadge } from './ApprovalStatusBadge';
import { ScreenHeading } from '../../components/ScreenHeading';

const t = text.detail;

/**
 * One request (GET /api/approvals/{id}): what runs on approval, the dry run the requester saw,
 * for a pending restore the dry run re-read against the live org now with the differences since,
 * and, for a member with `restore` who did not ask, approve (with a note) or reject (with a reason).
 */
export function ApprovalDetailScreen() {
  const { id = '' } = useParams();
  const me = useMe();
  const canRestore = useCan('restore');
  const detail = useQuery({
    queryKey: ['approval', id],
    queryFn: () => unwrap(api().GET('/api/approvals/{id}', { params: { path: { id } } })),
  });
  if (detail.error) return <ErrorAlert error={detail.error} />;
  if (!detail.data) return <Text>{t.loading}</Text>;
  const { approval, live } = detail.data;
  const refusal = cannotDecide(approval, { userId: me.data?.user?.id, canRestore });
  const restoreId = typeof approval.result?.restoreId === 'string' ? approval.result.restoreId : null;
  return (
    <Stack>
      <Anchor component={Link} to="/approvals">
        {t.back}
      </Anchor>
      <ScreenHeading title={`${t.title}: ${text.actions[approval.action]}`} />
      <Group>
        <ApprovalStatusBadge status={approval.status} />
        <Text style={{ overflowWrap: 'anywhere' }}>{approval.what.summary}</Text>
      </Group>
      <Text size="sm">
        {text.requester(
          approval.requester.user_id,
          approval.requester.client_name,
          approval.requester.client_id,
        )}
        {approval.requester.user_id === me.data?.user?.id && ` (${text.you})`} · {t.asked}{' '}
        <Instant iso={approval.created_at} /> · {t.expires} <Instant iso={approval.expires_at} />
      </Text>
      {approval.decided_at && (
        <Text size="sm">
          {t.decided} <Instant iso={approval.decided_at} />
          {approval.reason && ` · ${t.reason}: ${approval.reason}`}
        </Text>
      )}
      {restoreId && (
        <Anchor component={Link} to={`/restores/${restoreId}`}>
          {t.openRestore}
        </Anchor>
      )}
      {approval.error && (
        <Text c="red">
          {t.error}: {approval.error}
        </Text>
      )}
      <Panel heading={t.body}>
        <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(approval.body, null, 2)}
        </Text>
      </Panel>
      {live && <LivePanel live={live} />}
      {approval.preview && <PreviewPanel heading={t.seenTitle} preview={approval.preview} />}
      {refusal === 'own' && <Text>{t.own}</Text>}
      {refusal === null && <Decide id={approval.id} />}
    </Stack>
  );
}

function LivePanel({ live }: { live: Schemas['ApprovalLivePreview'] }) {
  if (live.error)
    return (
      <Panel heading={t.liveTitle}>
        <Text c="red">
          {t.liveError}: {live.error}
        </Text>
      </Panel>
    );
  const lines = describeChanges(live.changes);
  return (
    <>
      <Panel heading={t.changesTitle}>
        {lines.length === 0 ? (
          <Text>{t.noChanges}</Text>
        ) : (
          <List>
            {lines.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        )}
      </Panel>
      <PreviewPanel heading={t.liveTitle} preview={live.preview} />
    </>
  );
}

/** A dry run (GET /api/restore's body, as stored or read now) under its heading. */
function PreviewPanel({ heading, preview }: { heading: string; preview: Record<string, unknown> }) {
  return (
    <Panel heading={heading}>
      <PreviewTables preview={preview as unknown as Schemas['RestorePreview']} />
    </Panel>
  );
}

/** Approve (with an optional note) or reject (with a reason); either refreshes the request and the list. */
function Decide({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const settle = () =>
    queryClient
      .invalidateQueries({ queryKey: ['approval'] })
      .then(() => queryClient.invalidateQueries({ queryKey: ['approvals'] }));
  const approve = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/approvals/{id}/approve', {
          params: { path: { id } },
          body: note.trim() ? { note: note.trim() } : {},
        }),
      ),
    onSuccess: settle,
  });
  const reject = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/approvals/{id}/reject', {
          params: { path: { id } },
          body: { reason: reason.trim() },
        }),
      ),
    onSuccess: settle,
  });
  const d = text.decide;
  return (
    <Stack>
      {approve.error && <ErrorAlert error={approve.error} />}
      {reject.error && <ErrorAlert error={reject.error} />}
      <Textarea
        label={d.note}
        value={note}
        onChange={(event) => setNote(event.currentTarget.value)}
        maxLength={1000}
      />
      <Group>
        <Button loading={approve.isPending} onClick={() => approve.mutate()}>
          {d.approve}
        </Button>
      </Group>
      <Textarea
        label={d.reason}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        maxLength={1000}
      />
      <Group>
        <Button
          color="red"
          variant="light"
          disabled={!reason.trim()}
          loading={reject.isPending}
          onClick={() => reject.mutate()}
        >
          {d.reject}
        </Button>
      </Group>
    </Stack>
  );
}
