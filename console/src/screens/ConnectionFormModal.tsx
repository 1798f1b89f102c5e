import {
  Button,
  FileInput,
  Group,
  List,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { ApiError } from '../api/errors';
import { ErrorAlert } from '../components/ErrorAlert';
import { missingGraphPermissions } from '../logic/graph-permissions';
import { connectionFormMessages as text } from '../messages/connection-form';

type Provider = Schemas['CreateConnectionDto']['provider'];
/** The credential fields the API's create schema offers (CreateConnectionDto, but the provider). */
type FieldName = Exclude<keyof Schemas['CreateConnectionDto'], 'provider' | 'org_name'>;
type Fields = Partial<Record<FieldName | 'org_name', string>>;
/** Entra ID takes a client secret or a certificate, never both (docs/resource-types.md). */
type EntraCredential = 'secret' | 'certificate';

interface FieldSpec {
  name: FieldName;
  label: string;
  description?: string;
  secret?: boolean;
  multiline?: boolean;
  /** Optional on create (the API has a default). */
  optional?: boolean;
  /** Fixed once created (the API's PATCH does not take it). */
  fixed?: boolean;
  /** Read from a PEM file the person picks, not typed. */
  pemFile?: boolean;
}

/**
 * Which of CreateConnectionDto's fields each provider takes, as its descriptions say (spec
 * "Connections", docs/okta-workflows.md, docs/resource-types.md "Microsoft Entra ID"). Entra ID's
 * credential is `client_secret` or `client_certificate`, chosen by `credential`.
 */
function providerFields(provider: Provider, credential: EntraCredential): FieldSpec[] {
  const f = text.fields;
  switch (provider) {
    case 'okta':
      return [
        { name: 'org_url', label: f.org_url, fixed: true },
        { name: 'client_id', label: f.client_id },
        { name: 'client_secret', label: f.client_secret, secret: true },
      ];
    case 'okta_workflows':
      return [
        { name: 'org_url', label: f.org_url, fixed: true },
        { name: 'client_id', label: f.client_id },
        { name: 'private_key', label: f.private_key, secret: true, multiline: true },
        { name: 'flow_alias', label: f.flow_alias },
      ];
    case 'entra_id':
      return [
        { name: 'tenant_id', label: f.tenant_id, fixed: true },
        { name: 'client_id', label: f.client_id },
        credential === 'secret'
          ? { name: 'client_secret', label: f.client_secret, secret: true }
          : {
              name: 'client_certificate',
              label: f.certificate,
              description: f.certificate_description,
              secret: true,
              pemFile: true,
            },
        {
          name: 'org_url',
          label: f.graph_url,
          description: f.graph_url_description,
          optional: true,
          fixed: true,
        },
      ];
  }
}

/**
 * Creates a connection, or edits one (`connection` given: the provider and org are fixed, blank
 * credentials stay as stored). The provider chosen decides the fields; an Entra ID certificate is
 * read from a PEM file in the browser and sent as `client_certificate`. The API's field errors
 * appear beside their fields, and the Graph permissions it names as missing as a list.
 */
export function ConnectionFormModal(props: {
  opened: boolean;
  onClose: () => void;
  connection?: Schemas['Connection'];
}) {
  const editing = props.connection;
  const queryClient = useQueryClient();
  const [provider, setProvider] = useState<Provider>(editing?.provider ?? 'okta');
  const [credential, setCredential] = useState<EntraCredential>('secret');
  const [pemFile, setPemFile] = useState<File | null>(null);
  const [fields, setFields] = useState<Fields>({
    org_name: editing?.org_name ?? '',
    client_id: editing?.client_id ?? '',
  });
  const shown = providerFields(provider, credential).filter((field) => !editing || !field.fixed);
  const save = useMutation({
    mutationFn: () => {
      // Only the shown fields go: a secret typed before switching to a certificate stays behind.
      const filled = Object.fromEntries(
        shown
          .map((field) => [field.name, fields[field.name]?.trim() ?? ''] as const)
          .filter(([, value]) => value !== ''),
      ) as Partial<Record<FieldName, string>>;
      if (editing) {
        const { client_id, client_secret, private_key, client_certificate, flow_alias } = filled;
        return unwrap(
          api().PATCH('/api/connections/{id}', {
            params: { path: { id: editing.id } },
            body: {
              org_name: fields.org_name?.trim() || null,
              client_id,
              client_secret,
              private_key,
              client_certificate,
              flow_alias,
            },
          }),
        );
      }
      const orgName = fields.org_name?.trim();
      return unwrap(
        api().POST('/api/connections/create', {
          body: {
            ...filled,
            ...(orgName ? { org_name: orgName } : {}),
            provider,
          } as Schemas['CreateConnectionDto'],
        }),
      );
    },
    onSuccess: async ({ connection }) => {
      notifications.show({
        color: 'green',
        message: text.saved(connection.org_name ?? connection.org_url),
      });
      await queryClient.invalidateQueries({ queryKey: ['connections'] });
      props.onClose();
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const missing = save.error instanceof ApiError ? missingGraphPermissions(save.error.body.error) : [];
  const setValue = (name: FieldName | 'org_name', value: string) =>
    setFields((current) => ({ ...current, [name]: value }));
  const set = (name: FieldName | 'org_name') => (event: { currentTarget: { value: string } }) =>
    // Read now: React clears currentTarget once the handler returns, before the updater runs.
    setValue(name, event.currentTarget.value);
  const readPem = async (file: File | null) => {
    setPemFile(file);
    setValue('client_certificate', file ? await file.text() : '');
  };
  // Entra ID's credential kind, shown just above the credential's own field.
  const credentialChoice = (
    <SegmentedControl
      mb="sm"
      aria-label={text.credential}
      value={credential}
      onChange={(value) => setCredential(value as EntraCredential)}
      data={(['secret', 'certificate'] as const).map((value) => ({
        value,
        label: text.credentials[value],
      }))}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': text.close }}
      opened={props.opened}
      onClose={props.onClose}
      title={editing ? text.titleEdit : text.titleNew}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {!editing && (
            <SegmentedControl
              aria-label={text.provider}
              value={provider}
              onChange={(value) => setProvider(value as Provider)}
              data={(['okta', 'entra_id', 'okta_workflows'] as const).map((value) => ({
                value,
                label: text.providers[value],
              }))}
            />
          )}
          <TextInput
            label={text.name}
            value={fields.org_name ?? ''}
            onChange={set('org_name')}
            error={errors.org_name}
          />
          {shown.map((field) => {
            const common = {
              label: field.label,
              description: field.description,
              error: errors[field.name],
              required: !editing && !field.secret && !field.optional,
            };
            if (field.pemFile)
              return (
                <div key={field.name}>
                  {credentialChoice}
                  <FileInput
                    {...common}
                    required={!editing}
                    accept=".pem,.crt,.cer,.key,application/x-pem-file,text/plain"
                    value={pemFile}
                    onChange={(file) => void readPem(file)}
                    clearable
                    clearButtonProps={{ 'aria-label': text.fields.certificate_clear }}
                  />
                  {pemFile && fields.client_certificate && (
                    <Text size="sm" mt={4}>
                      {text.fields.certificate_read(pemFile.name)}
                    </Text>
                  )}
                </div>
              );
            const input = {
              ...common,
              value: fields[field.name] ?? '',
              onChange: set(field.name),
              placeholder: editing && field.secret ? text.unchanged : undefined,
            };
            return field.multiline ? (
              <Textarea key={field.name} {...input} autosize minRows={3} />
            ) : (
              <div key={field.name}>
                {field.name === 'client_secret' && provider === 'entra_id' && credentialChoice}
                <TextInput {...input} type={field.secret ? 'password' : 'text'} autoComplete="off" />
              </div>
            );
          })}
          {save.error && <ErrorAlert error={save.error} />}
          {missing.length > 0 && (
            <div>
              <Text size="sm" id="missing-permissions">
                {text.missingPermissions}
              </Text>
              <List size="sm" aria-labelledby="missing-permissions">
                {missing.map((permission) => (
                  <List.Item key={permission}>
                    <code>{permission}</code>
                  </List.Item>
                ))}
              </List>
            </div>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {text.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? text.save : text.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
