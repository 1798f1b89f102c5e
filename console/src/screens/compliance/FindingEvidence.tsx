import { Code, List, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatEvidenceValue, type Finding } from '../../logic/compliance';
import { complianceMessages as text } from '../../messages/compliance';
import { ScrollTable } from '../scores/ScrollTable';

/**
 * One finding's evidence (docs/compliance.md "Findings"): the requirement with its threshold and
 * source, the observed and expected values, a note, the resources judged (failing ones when it
 * failed; at most 20, `total` counts all) with the value read from each, the fields read (JSON
 * Pointers inside each record's `data`), the check's id and the remediation.
 */
export function FindingEvidence({ finding }: { finding: Finding }) {
  const { evidence } = finding;
  const caption = (finding.status === 'fail' ? text.resourcesFailing : text.resources)(
    evidence.resourceType,
    evidence.resources.length,
    evidence.total,
  );
  return (
    <Stack gap="xs">
      <Field label={text.requirement}>{finding.requirement}</Field>
      <Field label={text.observed}>{formatEvidenceValue(evidence.observed)}</Field>
      <Field label={text.expected}>{formatEvidenceValue(evidence.expected)}</Field>
      {evidence.note && <Field label={text.note}>{evidence.note}</Field>}
      {evidence.resources.length === 0 ? (
        <Text size="sm">{text.noResources}</Text>
      ) : (
        <ScrollTable minWidth={560} label={caption}>
          <Table striped>
            <Table.Caption>{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.resourceName}</Table.Th>
                <Table.Th>{text.resourceId}</Table.Th>
                <Table.Th>{text.resourceObserved}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {evidence.resources.map((resource) => (
                <Table.Tr key={resource.id}>
                  <Table.Td>{resource.name ?? '—'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Code>{resource.id}</Code>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {formatEvidenceValue(resource.observed)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {evidence.pointers.length > 0 && (
        <div>
          <Text size="sm" fw={600}>
            {text.pointers}
          </Text>
          <List size="sm" style={{ overflowWrap: 'anywhere' }}>
            {evidence.pointers.map((pointer) => (
              <List.Item key={pointer}>
                <Code>{pointer}</Code>
              </List.Item>
            ))}
          </List>
        </div>
      )}
      <Field label={text.check}>
        <Code>{finding.check}</Code>
      </Field>
      <Field label={text.remediation}>{finding.remediation}</Field>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600} size="sm">
        {label}:
      </Text>{' '}
      {children}
    </Text>
  );
}
