import { Badge, Group, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'react-router';
import { describeFieldChange, fieldChanges, type Change, type ChangeRow } from '../logic/changes';
import { ChangedBy } from './ChangedBy';
import { formatCount } from '../logic/format';
import { changeListMessages as text } from '../messages/changeList';
import { useCan } from '../session/me';
import { SeverityBadge } from './SeverityBadge';

const SHOWN_FIELDS = 6;

/**
 * The compare screen's changes as one virtualized list (@tanstack/react-virtual): only the rows
 * in view are in the page, so 10,000 changes scroll smoothly. Rows are measured as they render.
 */
export function ChangeList({
  rows,
  connectionId,
  fromBackupId,
}: {
  rows: ChangeRow[];
  connectionId: string;
  fromBackupId: string;
}) {
  const canRestore = useCan('restore');
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index].kind === 'group' ? 44 : 72),
    overscan: 8,
  });
  return (
    <div
      ref={scroller}
      data-testid="change-list"
      role="list"
      aria-label={text.label}
      tabIndex={0}
      style={{
        height: '65vh',
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 4,
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${item.start}px)`,
              }}
            >
              {row.kind === 'group' ? (
                <Group px="sm" py={8} bg="var(--console-section-background)">
                  <Text fw={700}>{row.group.type}</Text>
                  <Text size="sm">{formatCount(row.group.changes.length, text.change)}</Text>
                </Group>
              ) : (
                <ChangeItem
                  change={row.change}
                  connectionId={connectionId}
                  restoreFrom={canRestore ? fromBackupId : null}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function ChangeItem({
  change,
  connectionId,
  restoreFrom,
}: {
  change: Change;
  connectionId: string;
  restoreFrom: string | null;
}) {
  const fields = fieldChanges(change.resource.changes ?? []);
  const label = change.resource.name ?? change.resource.id;
  const restore = `/restore?${new URLSearchParams({ backupId: restoreFrom ?? '', resourceTypes: change.resourceType, resourceIds: change.resource.id })}`;
  // The undo's dry run limited to this object, since the compare's earlier backup.
  const revert = `/undo?${new URLSearchParams({ backupId: restoreFrom ?? '', resourceTypes: change.resourceType, resourceIds: change.resource.id })}`;
  const timeline = `/timeline?${new URLSearchParams({ connectionId, resourceType: change.resourceType, resourceId: change.resource.id })}`;
  return (
    <div
      style={{ padding: '6px 12px', borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="change"
    >
      <Group gap="xs">
        <SeverityBadge severity={change.severity} />
        <Text size="sm" fw={600}>
          {change.action}
        </Text>
        {change.recreated && (
          <Badge
            size="sm"
            variant="outline"
            data-testid="recreated"
            title={text.recreatedFrom(change.recreated.previousId)}
          >
            {text.recreated}
          </Badge>
        )}
        <Text size="sm">{label}</Text>
        <Text size="xs" c="dimmed">
          {change.rule}
        </Text>
        <Link to={timeline} style={{ fontSize: 12 }} aria-label={text.timelineOf(label)}>
          {text.timeline}
        </Link>
        {restoreFrom && change.action !== 'added' && (
          <Link to={restore} style={{ fontSize: 12 }} aria-label={text.restoreOf(label)}>
            {text.restore}
          </Link>
        )}
        {restoreFrom && (
          <Link to={revert} style={{ fontSize: 12 }} aria-label={text.revertOf(label)}>
            {text.revert}
          </Link>
        )}
      </Group>
      {change.recreated && (
        <Text size="xs" c="dimmed">
          {text.recreatedFrom(change.recreated.previousId)}
        </Text>
      )}
      <ChangedBy change={change} />
      {fields.slice(0, SHOWN_FIELDS).map((field, index) => (
        <Group key={index} gap="xs" wrap="nowrap">
          <Text size="xs" ff="monospace">
            {describeFieldChange(field)}
          </Text>
          {restoreFrom && change.action === 'modified' && !change.recreated && (
            // The undo's dry run of this object, writing back only this field.
            <Link
              to={`${revert}&${new URLSearchParams({ field: field.path })}`}
              style={{ fontSize: 12, whiteSpace: 'nowrap' }}
              aria-label={text.revertFieldOf(label, field.field)}
            >
              {text.revertField}
            </Link>
          )}
        </Group>
      ))}
      {fields.length > SHOWN_FIELDS && (
        <Text size="xs" c="dimmed">
          {text.moreFields(fields.length - SHOWN_FIELDS)}
        </Text>
      )}
    </div>
  );
}
