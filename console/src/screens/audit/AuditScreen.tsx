import { Badge, Button, Code, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZES,
  actorName,
  auditQuery,
  detailsText,
  newerPage,
  olderPage,
  type AuditFilters,
  type CursorTrail,
} from '../../logic/audit';
import { auditMessages as text } from '../../messages/audit';
import { useCan } from '../../session/me';
import { AuditDownloads } from './AuditDownloads';
import { ScreenHeading } from '../../components/ScreenHeading';

const NO_FILTERS: AuditFilters = { from: '', to: '', action: null, actorId: '', targetId: '', limit: 25 };

/**
 * The team's audit trail (`GET /api/audit-events`, permission `export`), newest first: filters by
 * time range, action, actor and target, pages through the API's keyset cursor (`nextAfter`), and
 * the downloads of the period (activity report, audit pack). A row's actor or target narrows the
 * trail to it.
 */
export function AuditScreen() {
  const canExport = useCan('export');
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [trail, setTrail] = useState<CursorTrail>([null]);
  const [debounced] = useDebouncedValue(filters, 300);
  const query = auditQuery(debounced, trail[trail.length - 1]);
  const events = useQuery({
    queryKey: ['audit-events', query],
    queryFn: () => unwrap(api().GET('/api/audit-events', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  /** A filter change starts again from the newest page. */
  const filter = (change: Partial<AuditFilters>) => {
    setFilters({ ...filters, ...change });
    setTrail([null]);
  };
  const nextAfter = events.data?.nextAfter ?? null;
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      <Group align="flex-end">
        <TextInput
          type="datetime-local"
          label={text.filters.from}
          value={filters.from}
          onChange={(event) => filter({ from: event.currentTarget.value })}
          w={{ base: '100%', sm: 220 }}
        />
        <TextInput
          type="datetime-local"
          label={text.filters.to}
          value={filters.to}
          onChange={(event) => filter({ to: event.currentTarget.value })}
          w={{ base: '100%', sm: 220 }}
        />
        <Select
          label={text.filters.action}
          placeholder={text.filters.anyAction}
          data={[...AUDIT_ACTIONS]}
          value={filters.action}
          onChange={(action) => filter({ action })}
          searchable
          clearable
          w={{ base: '100%', sm: 240 }}
        />
        <TextInput
          label={text.filters.actor}
          value={filters.actorId}
          onChange={(event) => filter({ actorId: event.currentTarget.value })}
          w={{ base: '100%', sm: 320 }}
        />
        <TextInput
          label={text.filters.target}
          value={filters.targetId}
          onChange={(event) => filter({ targetId: event.currentTarget.value })}
          w={{ base: '100%', sm: 320 }}
        />
        <Select
          label={text.filters.perPage}
          data={[...AUDIT_PAGE_SIZES]}
          value={String(filters.limit)}
          onChange={(limit) => filter({ limit: Number(limit ?? NO_FILTERS.limit) })}
          allowDeselect={false}
          w={{ base: '100%', sm: 110 }}
        />
        <Button variant="default" onClick={() => filter(NO_FILTERS)}>
          {text.filters.clear}
        </Button>
      </Group>
      {events.error && <ErrorAlert error={events.error} />}
      {events.data && events.data.events.length === 0 && <Text>{text.empty}</Text>}
      {!!events.data?.events.length && (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped aria-label={text.table.label} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.table.when}</Table.Th>
                <Table.Th>{text.table.action}</Table.Th>
                <Table.Th>{text.table.actor}</Table.Th>
                <Table.Th>{text.table.target}</Table.Th>
                <Table.Th>{text.table.outcome}</Table.Th>
                <Table.Th>{text.table.details}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.events.map((event) => (
                <AuditRow key={event.id} event={event} onFilter={filter} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group component="nav" aria-label={text.pages.label} align="center">
        <Button variant="default" disabled={trail.length === 1} onClick={() => setTrail(newerPage(trail))}>
          {text.pages.newer}
        </Button>
        <Text>{text.pages.page(trail.length)}</Text>
        <Button
          variant="default"
          disabled={!nextAfter || events.isPlaceholderData}
          onClick={() => nextAfter && setTrail(olderPage(trail, nextAfter))}
        >
          {text.pages.older}
        </Button>
      </Group>
      {canExport && <AuditDownloads />}
    </Stack>
  );
}

/** One event; its actor and target are buttons that narrow the trail to them. */
function AuditRow({
  event,
  onFilter,
}: {
  event: Schemas['AuditEvent'];
  onFilter: (change: Partial<AuditFilters>) => void;
}) {
  const actor = actorName(event.actor, text.table);
  const target = event.target.id ? `${event.target.type} ${event.target.id}` : event.target.type;
  const details = detailsText(event.details);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Instant iso={event.occurred_at} />
      </Table.Td>
      <Table.Td>
        <Code>{event.action}</Code>
      </Table.Td>
      <Table.Td>
        {event.actor.id ? (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label={text.table.onlyActor(actor)}
            onClick={() => onFilter({ actorId: event.actor.id ?? '' })}
          >
            {actor}
          </Button>
        ) : (
          actor
        )}
      </Table.Td>
      <Table.Td>
        {event.target.id ? (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label={text.table.onlyTarget(target)}
            onClick={() => onFilter({ targetId: event.target.id ?? '' })}
          >
            {`${event.target.type} ${event.target.id.slice(0, 8)}`}
          </Button>
        ) : (
          target
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge
          color={event.outcome === 'failure' ? 'red' : 'green'}
          variant="light"
          // The word whole: a squeezed column would otherwise cut it ("SUCC…").
          styles={{ label: { overflow: 'visible' } }}
        >
          {event.outcome}
        </Badge>
      </Table.Td>
      <Table.Td miw={220}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} lineClamp={3} title={details}>
          {details}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
