import { Button, Code, CopyButton, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { clientRoles, mayHandleRole, type Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';
import { useMembers } from './MembersSection';
import { MutationConfirm } from './MutationConfirm';
import { RevokeButton, RoleGrantForm, type RoleGrant } from './RoleGrantForm';

const text = teamMessages.clients;
type Client = Schemas['TeamClient'];
type CreatedClient = Schemas['CreatedTeamClient'];

/**
 * Integration clients (`GET /api/team/clients`): create one acting for the caller (`POST`; its
 * secret is answered once, shown in a dialog with a copy button, and forgotten when the dialog
 * closes) and revoke one (`DELETE`; its tokens stop at once).
 */
export function ClientsSection({ callerRole }: { callerRole: Role }) {
  const queryClient = useQueryClient();
  const roles = clientRoles(callerRole);
  const [created, setCreated] = useState<CreatedClient | null>(null);
  const [revoking, setRevoking] = useState<Client | null>(null);
  const members = useMembers();
  const clients = useQuery({
    queryKey: ['team', 'clients'],
    queryFn: () => unwrap(api().GET('/api/team/clients')),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['team', 'clients'] });
  const create = useMutation({
    mutationFn: ({ value, role }: RoleGrant<Role>) =>
      unwrap(
        api().POST('/api/team/clients', { body: { role, ...(value.trim() ? { name: value.trim() } : {}) } }),
      ),
    onSuccess: async ({ client }) => {
      setCreated(client);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (clientId: string) =>
      unwrap(api().DELETE('/api/team/clients/{clientId}', { params: { path: { clientId } } })),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.revoked });
      setRevoking(null);
      await refresh();
    },
  });
  const memberEmail = (userId: string) =>
    members.data?.members.find((member) => member.user_id === userId)?.email ?? userId;
  return (
    <Stack component="section" aria-labelledby="team-clients-title" gap="xs">
      <Title order={2} size="h3" id="team-clients-title">
        {text.title}
      </Title>
      <Text size="sm">{text.intro}</Text>
      <RoleGrantForm
        field={{ name: 'name', label: text.name, maxLength: 200 }}
        roles={{ options: roles, label: text.role, width: 200 }}
        submit={{ label: text.create, submission: create }}
      />
      {clients.error && <ErrorAlert error={clients.error} />}
      {clients.data?.clients.length === 0 && <Text size="sm">{text.none}</Text>}
      {!!clients.data?.clients.length && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label={text.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.nameColumn}</Table.Th>
                <Table.Th>{text.clientId}</Table.Th>
                <Table.Th>{text.role}</Table.Th>
                <Table.Th>{text.createdBy}</Table.Th>
                <Table.Th>{text.created}</Table.Th>
                <Table.Th>{text.status}</Table.Th>
                <Table.Th>{text.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clients.data.clients.map((client) => (
                <Table.Tr key={client.client_id}>
                  <Table.Td>{client.name}</Table.Td>
                  <Table.Td>
                    <Code>{client.client_id}</Code>
                  </Table.Td>
                  <Table.Td>{teamMessages.roles[client.role]}</Table.Td>
                  <Table.Td>{memberEmail(client.created_by)}</Table.Td>
                  <Table.Td>
                    <Instant iso={client.created_at} />
                  </Table.Td>
                  <Table.Td>
                    {client.revoked_at ? (
                      <>
                        {text.revokedAt} <Instant iso={client.revoked_at} />
                      </>
                    ) : (
                      text.active
                    )}
                  </Table.Td>
                  <Table.Td>
                    {!client.revoked_at && mayHandleRole(callerRole, client.role) && (
                      <RevokeButton text={text} name={client.name} onClick={() => setRevoking(client)} />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {created && <CreatedSecret client={created} onClose={() => setCreated(null)} />}
      {revoking && (
        <MutationConfirm
          title={text.revokeTitle}
          confirmLabel={text.revokeConfirm}
          body={text.revokeBody(revoking.name)}
          target={revoking.client_id}
          submission={revoke}
          onClose={() => setRevoking(null)}
        />
      )}
    </Stack>
  );
}

/** The new client's id and its secret, shown this once; closing drops the secret from memory. */
function CreatedSecret({ client, onClose }: { client: CreatedClient; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={text.secretTitle}>
      <Stack>
        <Text size="sm">{text.secretWarning}</Text>
        <div>
          <Text size="sm" fw={700}>
            {text.clientId}
          </Text>
          <Code block>{client.client_id}</Code>
        </div>
        <div>
          <Text size="sm" fw={700}>
            {text.secretLabel}
          </Text>
          <Code block data-testid="client-secret">
            {client.client_secret}
          </Code>
        </div>
        <Group justify="space-between">
          <CopyButton value={client.client_secret}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? text.copied : text.copy}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-autofocus>
            {text.done}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
