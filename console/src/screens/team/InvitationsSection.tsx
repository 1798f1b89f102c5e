import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ConfirmModal } from '../../components/ConfirmModal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { grantableRoles, mayHandleRole, type AssignableRole, type Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';

const text = teamMessages.invitations;
type Invitation = Schemas['TeamInvitation'];

/**
 * Open invitations (`GET /api/team/invitations`), a form that invites an address with a role
 * (`POST`; the plan's `members` limit counts open invitations, 402 past it), and revocation.
 */
export function InvitationsSection({ callerRole }: { callerRole: Role }) {
  const queryClient = useQueryClient();
  const roles = grantableRoles(callerRole);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('viewer');
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const invitations = useQuery({
    queryKey: ['team', 'invitations'],
    queryFn: () => unwrap(api().GET('/api/team/invitations')),
  });
  // Usage on the plan (members plus open invitations) changes with every invitation.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['team', 'invitations'] }),
      queryClient.invalidateQueries({ queryKey: ['me'] }),
    ]);
  const invite = useMutation({
    mutationFn: () => unwrap(api().POST('/api/team/invitations', { body: { email, role } })),
    onSuccess: async ({ invitation }) => {
      notifications.show({ color: 'green', message: text.invited(invitation.email) });
      setEmail('');
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api().DELETE('/api/team/invitations/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.revoked });
      setRevoking(null);
      await refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const fieldErrors = invite.error instanceof ApiError ? invite.error.fieldErrors() : {};
  return (
    <Stack component="section" aria-labelledby="team-invitations-title" gap="xs">
      <Title order={2} size="h3" id="team-invitations-title">
        {text.title}
      </Title>
      <Text size="sm">{text.intro}</Text>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label={text.email}
            type="email"
            required
            w={{ base: '100%', sm: 320 }}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={fieldErrors.email}
          />
          <NativeSelect
            label={text.role}
            w={{ base: '100%', sm: 180 }}
            value={role}
            data={roles.map((value) => ({ value, label: teamMessages.roles[value] }))}
            onChange={(event) => setRole(event.currentTarget.value as AssignableRole)}
            error={fieldErrors.role}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={invite.isPending}>
            {text.invite}
          </Button>
        </Group>
      </form>
      {invite.error && !Object.keys(fieldErrors).length && <ErrorAlert error={invite.error} />}
      {invitations.error && <ErrorAlert error={invitations.error} />}
      {invitations.data?.invitations.length === 0 && <Text size="sm">{text.none}</Text>}
      {!!invitations.data?.invitations.length && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={text.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.emailColumn}</Table.Th>
                <Table.Th>{text.role}</Table.Th>
                <Table.Th>{text.expires}</Table.Th>
                <Table.Th>{text.status}</Table.Th>
                <Table.Th>{text.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.data.invitations.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{teamMessages.roles[invitation.role]}</Table.Td>
                  <Table.Td>
                    <Instant iso={invitation.expires_at} />
                  </Table.Td>
                  <Table.Td>{text.statuses[invitation.status]}</Table.Td>
                  <Table.Td>
                    {mayHandleRole(callerRole, invitation.role) && (
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        aria-label={`${text.revoke} ${invitation.email}`}
                        onClick={() => setRevoking(invitation)}
                      >
                        {text.revoke}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {revoking && (
        <ConfirmModal
          opened
          title={text.revokeTitle}
          confirmLabel={text.revokeConfirm}
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onClose={() => setRevoking(null)}
        >
          {text.revokeBody(revoking.email)}
          {revoke.error && <ErrorAlert error={revoke.error} />}
        </ConfirmModal>
      )}
    </Stack>
  );
}
