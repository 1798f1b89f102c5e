import { Select } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { useMe } from '../session/me';
import { teamSwitcherMessages as text } from '../messages/teamSwitcher';
import { ErrorAlert } from './ErrorAlert';

/** The current team, and a switch to another of the person's teams (`POST /api/me/team`). */
export function TeamSwitcher() {
  const me = useMe();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (teamId: string) => unwrap(api().POST('/api/me/team', { body: { teamId } })),
    // Everything the console holds belonged to the previous team.
    onSuccess: () => queryClient.resetQueries(),
  });
  if (!me.data) return null;
  const { teams, current_team: current } = me.data;
  return (
    <>
      <Select
        aria-label={text.label}
        size="xs"
        w={{ base: 110, sm: 220 }}
        allowDeselect={false}
        data={teams.map((team) => ({ value: team.id, label: text.option(team.name, team.role) }))}
        value={current.id}
        disabled={teams.length < 2 || change.isPending}
        onChange={(teamId) => teamId && teamId !== current.id && change.mutate(teamId)}
      />
      {change.error && <ErrorAlert error={change.error} />}
    </>
  );
}
