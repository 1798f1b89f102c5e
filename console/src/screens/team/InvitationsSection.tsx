import { Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { grantableRoles, mayHandleRole, type AssignableRole, type Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';
import { MutationConfirm } from './MutationConfirm';
import { RevokeButton, RoleGrantForm, type RoleGrant } from './RoleGrantForm';

const text = teamMessages.invitations;
type Invitation = Schemas['TeamInvitation'];

/**
 * Open invitations (`GET /api/team/invitations`), a form that invites an address with a role
 * (`POST`; the plan's `members` limit counts open invitations, 402 past it), and revocation.
 */
export function InvitationsSection({ callerRole }: { callerRole: Role }) {
  const queryClient = useQueryClient();
  const roles = grantableRoles(callerRole);
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
    mutationFn: ({ value, role }: RoleGrant<AssignableRole>) =>
      unwrap(api().POST('/api/team/invitations', { body: { email: value, role } })),
    onSuccess: async ({ invitation }) => {
      notifications.show({ color: 'green', message: text.invited(invitation.email) });
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
  return (
    <Stack component="section" aria-labelledby="team-invitations-title" gap="xs">
      <Title order={2} size="h3" id="team-invitations-title">
        {text.title}
      </Title>
      <Text size="sm">{text.intro}</Text>
      <RoleGrantForm
        field={{ name: 'email', label: text.email, type: 'email', required: true }}
        roles={{ options: roles, label: text.role, width: 180 }}
        submit={{ label: text.invite, submission: invite }}
      />
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
                      <RevokeButton
                        text={text}
                        name={invitation.email}
                        onClick={() => setRevoking(invitation)}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {revoking && (
        <MutationConfirm
          title={text.revokeTitle}
          confirmLabel={text.revokeConfirm}
          body={text.revokeBody(revoking.email)}
          target={revoking.id}
          submission={revoke}
          onClose={() => setRevoking(null)}
        />
      )}
    </Stack>
  );
}
