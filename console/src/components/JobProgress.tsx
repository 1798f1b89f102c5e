import { Group, Progress, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { jobProgressMessages as text } from '../messages/jobProgress';
import { StatusBadge } from './StatusBadge';

/**
 * A job's status line and live progress (a backup's or a restore's): the status badge, a summary,
 * the bar named by `label` for screen readers (red once the job failed), and the job's latest
 * message announced politely as it changes.
 */
export function JobProgress(props: {
  label: string;
  status: string;
  summary: ReactNode;
  pct: number;
  message: string | null | undefined;
}) {
  return (
    <>
      <Group>
        <StatusBadge status={props.status} />
        <Text size="sm">{props.summary}</Text>
      </Group>
      <Progress.Root size="xl">
        <Progress.Section
          aria-label={props.label}
          value={props.pct}
          color={props.status === 'failed' ? 'red' : 'blue'}
        >
          <Progress.Label>{text.pct(props.pct)}</Progress.Label>
        </Progress.Section>
      </Progress.Root>
      <Text size="sm" aria-live="polite">
        {props.message}
      </Text>
    </>
  );
}
