import { Button, Group, Modal, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { ApiError } from '../api/errors';
import { ErrorAlert } from '../components/ErrorAlert';

type Provider = Schemas['CreateConnectionDto']['provider'];
type Fields = Record<string, string>;

/** Which credential fields each provider takes (spec "Connections", docs/okta-workflows.md). */
const PROVIDER_FIELDS: Record<
  Provider,
  Array<{ name: string; label: string; secret?: boolean; multiline?: boolean }>
> = {
  okta: [
    { name: 'org_url', label: 'Org URL' },
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret', secret: true },
  ],
  entra_id: [
    { name: 'tenant_id', label: 'Tenant ID' },
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret (or a certificate below)', secret: true },
    { name: 'client_certificate', label: 'Client certificate (PEM)', secret: true, multiline: true },
    { name: 'private_key', label: "Certificate's private key (PEM)", secret: true, multiline: true },
  ],
  okta_workflows: [
    { name: 'org_url', label: 'Org URL' },
    { name: 'client_id', label: 'Client ID' },
    { name: 'private_key', label: 'Private key (PEM or private JWK)', secret: true, multiline: true },
    { name: 'flow_alias', label: 'Flow alias' },
  ],
};

/**
 * Creates a connection, or edits one (`connection` given: the provider and org are fixed, blank
 * credentials stay as stored). The API's field errors appear beside their fields.
 */
export function ConnectionFormModal(props: {
  opened: boolean;
  onClose: () => void;
  connection?: Schemas['Connection'];
}) {
  const editing = props.connection;
  const queryClient = useQueryClient();
  const [provider, setProvider] = useState<Provider>(editing?.provider ?? 'okta');
  const [fields, setFields] = useState<Fields>({
    org_name: editing?.org_name ?? '',
    client_id: editing?.client_id ?? '',
  });
  const save = useMutation({
    mutationFn: () => {
      const filled = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
      if (editing) {
        const { client_id, client_secret, private_key, client_certificate, flow_alias } = filled;
        return unwrap(
          api().PATCH('/api/connections/{id}', {
            params: { path: { id: editing.id } },
            body: {
              org_name: fields.org_name.trim() || null,
              client_id,
              client_secret,
              private_key,
              client_certificate,
              flow_alias,
            },
          }),
        );
      }
      return unwrap(
        api().POST('/api/connections/create', {
          body: { ...filled, provider } as Schemas['CreateConnectionDto'],
        }),
      );
    },
    onSuccess: async ({ connection }) => {
      notifications.show({
        color: 'green',
        message: `Saved connection ${connection.org_name ?? connection.org_url}`,
      });
      await queryClient.invalidateQueries({ queryKey: ['connections'] });
      props.onClose();
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const set = (name: string) => (event: { currentTarget: { value: string } }) => {
    // Read now: React clears currentTarget once the handler returns, before the updater runs.
    const value = event.currentTarget.value;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const credentialFields = PROVIDER_FIELDS[provider].filter(
    (field) => !editing || (field.name !== 'org_url' && field.name !== 'tenant_id'),
  );
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={props.opened}
      onClose={props.onClose}
      title={editing ? 'Edit connection' : 'New connection'}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {!editing && (
            <SegmentedControl
              aria-label="Provider"
              value={provider}
              onChange={(value) => setProvider(value as Provider)}
              data={[
                { value: 'okta', label: 'Okta' },
                { value: 'entra_id', label: 'Entra ID' },
                { value: 'okta_workflows', label: 'Okta Workflows' },
              ]}
            />
          )}
          <TextInput
            label="Name (optional)"
            value={fields.org_name ?? ''}
            onChange={set('org_name')}
            error={errors.org_name}
          />
          {credentialFields.map((field) => {
            const common = {
              key: field.name,
              label: field.label,
              value: fields[field.name] ?? '',
              onChange: set(field.name),
              error: errors[field.name],
              required: !editing && !field.secret,
              placeholder: editing && field.secret ? 'Unchanged' : undefined,
            };
            return field.multiline ? (
              <Textarea {...common} autosize minRows={3} />
            ) : (
              <TextInput {...common} type={field.secret ? 'password' : 'text'} autoComplete="off" />
            );
          })}
          {save.error && <ErrorAlert error={save.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Save' : 'Create connection'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
