import { Divider, Stack } from '@mantine/core';
import { teamMessages } from '../../messages/team';
import { useCan, useMe } from '../../session/me';
import { ClientsSection } from './ClientsSection';
import { InvitationsSection } from './InvitationsSection';
import { MembersSection } from './MembersSection';
import { PlanSection } from './PlanSection';
import { ApprovalSettingsSection } from './ApprovalSettingsSection';
import { ScreenHeading } from '../../components/ScreenHeading';

/**
 * The team (permission `manage team`, docs/security.md "Team management"): members and their
 * roles, invitations, integration clients, and the plan with its limits and usage.
 */
export function TeamScreen() {
  const me = useMe();
  const canManage = useCan('manage team');
  const team = me.data?.current_team;
  const userId = me.data?.user?.id;
  return (
    <Stack>
      <ScreenHeading title={teamMessages.title} />
      {team && userId && canManage && (
        <>
          <MembersSection caller={{ role: team.role, userId }} />
          <Divider />
          <InvitationsSection callerRole={team.role} />
          <Divider />
          <ClientsSection callerRole={team.role} />
          <Divider />
          <ApprovalSettingsSection />
          <Divider />
        </>
      )}
      {team && <PlanSection plan={team.plan} />}
    </Stack>
  );
}
