import { Accordion, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { Instant } from '../../components/Instant';
import { SeverityBadge } from '../../components/SeverityBadge';
import { countByStatus, orderFindings, STATUS_ORDER, type FindingStatus } from '../../logic/compliance';
import { complianceMessages as text } from '../../messages/compliance';
import { FindingEvidence } from './FindingEvidence';

const STATUS_COLORS: Record<FindingStatus, string> = {
  fail: 'red',
  warning: 'orange',
  pass: 'green',
  manual: 'gray',
  not_applicable: 'gray',
};

/** A finding's status as a coloured word. */
export function FindingStatusBadge({ status }: { status: FindingStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {text.status[status]}
    </Badge>
  );
}

/**
 * A compliance report (`ComplianceReport`): the score with the framework and version, the counts
 * per status, and every control in reading order (failed first), each opening to its evidence.
 * Failed controls and warnings start open.
 */
export function ComplianceResult({ report }: { report: Schemas['ComplianceReport'] }) {
  const findings = orderFindings(report.findings);
  const counts = countByStatus(report.findings);
  const key = (index: number) => `${index}`;
  const open = findings.flatMap((finding, index) =>
    finding.status === 'fail' || finding.status === 'warning' ? [key(index)] : [],
  );
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="sm">
          <Text size="xs" c="dimmed">
            {text.score}
          </Text>
          <Text fw={700} size="xl" data-testid="compliance-score">
            {report.score} / 100
          </Text>
          <Text size="xs" c="dimmed">
            {report.framework_version}
          </Text>
        </Paper>
        <Paper withBorder p="sm">
          <Text size="xs" c="dimmed">
            {text.backupTaken}
          </Text>
          <Text>
            <Instant iso={report.findings[0]?.evidence.collectedAt} />
          </Text>
          <Text size="xs" c="dimmed">
            {text.generatedAt} <Instant iso={report.generatedAt} />
          </Text>
        </Paper>
        <Paper withBorder p="sm">
          <Group gap="xs">
            {STATUS_ORDER.map((status) => (
              <Text key={status} size="sm">
                {text.counts[status]}: <strong>{counts[status]}</strong>
              </Text>
            ))}
          </Group>
        </Paper>
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {text.scoreHelp}
      </Text>
      <Title order={2} size="h3">
        {text.findings}
      </Title>
      <Text size="sm">{text.findingsHelp}</Text>
      <Accordion
        multiple
        defaultValue={open}
        variant="separated"
        key={`${report.backupId}-${report.framework}`}
      >
        {findings.map((finding, index) => (
          <Accordion.Item key={key(index)} value={key(index)} data-testid="finding">
            <Accordion.Control>
              <Group gap="xs" wrap="wrap">
                <FindingStatusBadge status={finding.status} />
                <SeverityBadge severity={finding.severity} />
                <Text fw={600}>{finding.control}</Text>
                <Text>{finding.title}</Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <FindingEvidence finding={finding} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
