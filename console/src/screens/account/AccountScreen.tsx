import { Divider, Stack } from '@mantine/core';
import { accountMessages } from '../../messages/account';
import { useCan, useMe } from '../../session/me';
import { DeletionSection } from './DeletionSection';
import { ExportSection } from './ExportSection';
import { ScreenHeading } from '../../components/ScreenHeading';

/** The account's data rights (docs/account.md): export (permission `export`) and deletion (the owner). */
export function AccountScreen() {
  const me = useMe();
  const canExport = useCan('export');
  const canErase = useCan('account erasure');
  const team = me.data?.current_team;
  return (
    <Stack>
      <ScreenHeading title={accountMessages.title} />
      {team && canExport && <ExportSection plan={team.plan} />}
      <Divider />
      {team && <DeletionSection scheduledFor={team.deletion_scheduled_for} canErase={canErase} />}
    </Stack>
  );
}
