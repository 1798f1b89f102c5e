import { Group, Text } from '@mantine/core';
import type { Schemas } from '../api/client';
import { changedByText } from '../logic/changed-by';
import { changeListMessages as text } from '../messages/changeList';
import { Instant } from './Instant';

type Attributed = Pick<
  Schemas['DiffChange'],
  'changedBy' | 'changedAt' | 'attribution' | 'byThisService' | 'attributionReason'
>;

/**
 * Who made a change and when, from the provider's audit log (docs/diff.md "Who changed it"), or
 * why the log does not say: a diff row's or a timeline event's `changedBy`.
 */
export function ChangedBy({ change }: { change: Attributed }) {
  const by = changedByText(change);
  if (by.missing)
    return (
      <Text size="xs" c="dimmed" data-testid="changed-by">
        {by.missing === 'no_record'
          ? text.noRecord
          : change.attributionReason
            ? text.notAvailableBecause(change.attributionReason)
            : text.notAvailable}
      </Text>
    );
  return (
    <Group gap={6} data-testid="changed-by">
      <Text size="xs">{text.changedBy(by.byThisService ? text.byThisService : (by.who ?? ''))}</Text>
      <Text size="xs" c="dimmed">
        <Instant iso={change.changedAt} />
      </Text>
      {by.from && (
        <Text size="xs" c="dimmed">
          {text.changedFrom(by.from)}
        </Text>
      )}
    </Group>
  );
}
