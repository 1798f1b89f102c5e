import { Group, List, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { Schemas } from '../api/client';
import { useConnectionChoices } from '../api/connection-choices';
import { ErrorAlert } from '../components/ErrorAlert';
import type { MappingForm } from '../logic/cross-org';
import { crossOrgMessages as text } from '../messages/crossOrg';

/**
 * The restore screen's optional other org (docs/restore.md "Into another org"): a connection of
 * the backup's provider kind other than its own, and the mapping form (domain and host rewrites,
 * group name prefix and suffix), shown once a target is chosen.
 */
export function CrossOrgTarget(props: {
  backupConnection: { id: string; provider: string };
  target: string | null;
  /** The chosen connection's id and display name (typed to confirm a restore into it), or null. */
  onTarget: (target: { value: string; label: string } | null) => void;
  mapping: MappingForm;
  onMapping: (mapping: MappingForm) => void;
}) {
  const { choices, error } = useConnectionChoices(
    (connection) => connection.provider === props.backupConnection.provider,
  );
  const field = (key: keyof MappingForm) => ({
    label: text[key],
    value: props.mapping[key],
    onChange: (event: { currentTarget: { value: string } }) =>
      props.onMapping({ ...props.mapping, [key]: event.currentTarget.value }),
    w: { base: '100%', sm: 260 },
  });
  return (
    <Stack gap="xs">
      {error ? <ErrorAlert error={error} /> : null}
      <Select
        label={text.target}
        description={text.targetHelp}
        placeholder={text.targetPlaceholder}
        clearable
        data={choices.filter((choice) => choice.value !== props.backupConnection.id)}
        value={props.target}
        onChange={(value, option) => props.onTarget(value && option ? { value, label: option.label } : null)}
        w={{ base: '100%', sm: 420 }}
      />
      {props.target && (
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>
            <Text fw={600}>{text.mapping}</Text>
          </legend>
          <Group align="flex-end">
            <TextInput {...field('domainFrom')} />
            <TextInput {...field('domainTo')} />
          </Group>
          <Group align="flex-end">
            <TextInput {...field('hostFrom')} />
            <TextInput {...field('hostTo')} />
          </Group>
          <Group align="flex-end">
            <TextInput {...field('groupPrefix')} />
            <TextInput {...field('groupSuffix')} />
          </Group>
        </fieldset>
      )}
    </Stack>
  );
}

/** The dry run into another org: each object's outcome, then what is unmapped and what cannot move. */
export function CrossOrgTables({ crossOrg }: { crossOrg: Schemas['CrossOrgPreview'] }) {
  return (
    <Stack>
      <Title order={3} size="h4">
        {text.title(crossOrg.targetOrgUrl)}
      </Title>
      <Text size="sm">{text.shown(crossOrg.objects.length, crossOrg.objectsTotal)}</Text>
      <Table.ScrollContainer minWidth={560}>
        <Table striped aria-label={text.tableLabel}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{text.columns.type}</Table.Th>
              <Table.Th>{text.columns.object}</Table.Th>
              <Table.Th>{text.columns.outcome}</Table.Th>
              <Table.Th>{text.columns.why}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {crossOrg.objects.map((object, index) => (
              <Table.Tr key={`${object.resourceType}/${object.sourceId ?? object.targetId}/${index}`}>
                <Table.Td>{object.resourceType}</Table.Td>
                <Table.Td>{object.name ?? object.sourceId ?? object.targetId}</Table.Td>
                <Table.Td>{text.outcomes[object.action]}</Table.Td>
                <Table.Td>{object.why}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {crossOrg.unmapped.length > 0 && (
        <>
          <Title order={3} size="h4">
            {text.unmapped}
          </Title>
          <List>
            {crossOrg.unmapped.map((item) => (
              <List.Item key={`${item.resourceType}/${item.sourceId}/${item.reference}`}>
                {text.unmappedItem(item.resourceType, item.name ?? item.sourceId, item.reference)}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {crossOrg.cannotMove.length > 0 && (
        <>
          <Title order={3} size="h4">
            {text.cannotMove}
          </Title>
          <List>
            {crossOrg.cannotMove.map((item) => (
              <List.Item key={`${item.resourceType}/${item.kind}/${item.why}`}>
                {text.cannotMoveItem(item.resourceType, item.count, item.why, item.objects)}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}
