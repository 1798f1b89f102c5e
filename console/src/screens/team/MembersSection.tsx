import { Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { grantableRoles, mayChangeMember, type AssignableRole, type Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';
import { MutationConfirm } from './MutationConfirm';

const text = teamMessages.members;
type Member = Schemas['TeamMember'];
type Dialog = { kind: 'remove' | 'transfer'; member: Member } | null;

/** The team's members (`GET /api/team/members`) as query key `['team', 'members']`. */
export function useMembers() {
  return useQuery({
    queryKey: ['team', 'members'],
    queryFn: () => unwrap(api().GET('/api/team/members')),
  });
}

/**
 * Members with their roles: the caller changes a role or removes a member where the API's rules
 * allow (docs/security.md "Team management"), and the owner hands ownership to another member.
 */
export function MembersSection({ caller }: { caller: { role: Role; userId: string } }) {
  const queryClient = useQueryClient();
  const members = useMembers();
  const [dialog, setDialog] = useState<Dialog>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['team'] });
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: AssignableRole }) =>
      unwrap(
        api().PATCH('/api/team/members/{userId}', {
          params: { path: { userId: member.user_id } },
          body: { role },
        }),
      ),
    onSuccess: async ({ member }) => {
      notifications.show({
        color: 'green',
        message: text.roleChanged(member.email, teamMessages.roles[member.role]),
      });
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (member: Member) =>
      unwrap(api().DELETE('/api/team/members/{userId}', { params: { path: { userId: member.user_id } } })),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.removed });
      setDialog(null);
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['me'] })]);
    },
  });
  const transfer = useMutation({
    mutationFn: (member: Member) =>
      unwrap(api().POST('/api/team/ownership/transfer', { body: { user_id: member.user_id } })),
    onSuccess: async ({ owner }) => {
      notifications.show({ color: 'green', message: text.transferred(owner.email) });
      setDialog(null);
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['me'] })]);
    },
  });
  const roles = grantableRoles(caller.role);
  return (
    <Stack component="section" aria-labelledby="team-members-title" gap="xs">
      <Title order={2} size="h3" id="team-members-title">
        {text.title}
      </Title>
      {members.error && <ErrorAlert error={members.error} />}
      {changeRole.error && <ErrorAlert error={changeRole.error} />}
      {members.data && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={text.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.email}</Table.Th>
                <Table.Th>{text.role}</Table.Th>
                <Table.Th>{text.joined}</Table.Th>
                <Table.Th>{text.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.members.map((member) => {
                const changeable = mayChangeMember(caller, member);
                return (
                  <Table.Tr key={member.user_id}>
                    <Table.Td>
                      {member.email}
                      {member.user_id === caller.userId && (
                        <Text span c="dimmed">
                          {' '}
                          {text.you}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {changeable ? (
                        <NativeSelect
                          aria-label={text.roleOf(member.email)}
                          size="xs"
                          value={member.role}
                          data={roles.map((role) => ({ value: role, label: teamMessages.roles[role] }))}
                          disabled={changeRole.isPending}
                          onChange={(event) =>
                            changeRole.mutate({ member, role: event.currentTarget.value as AssignableRole })
                          }
                        />
                      ) : (
                        teamMessages.roles[member.role]
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Instant iso={member.joined_at} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        {changeable && (
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            aria-label={`${text.remove} ${member.email}`}
                            onClick={() => setDialog({ kind: 'remove', member })}
                          >
                            {text.remove}
                          </Button>
                        )}
                        {caller.role === 'super_admin' && member.user_id !== caller.userId && (
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`${text.transfer}: ${member.email}`}
                            onClick={() => setDialog({ kind: 'transfer', member })}
                          >
                            {text.transfer}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog?.kind === 'remove' && (
        <MutationConfirm
          title={text.removeTitle}
          confirmLabel={text.removeConfirm}
          body={text.removeBody(dialog.member.email)}
          target={dialog.member}
          submission={remove}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'transfer' && (
        <MutationConfirm
          title={text.transferTitle}
          confirmLabel={text.transferConfirm}
          body={text.transferBody(dialog.member.email)}
          target={dialog.member}
          submission={transfer}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
