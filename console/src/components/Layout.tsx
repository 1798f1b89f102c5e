import { AppShell, Button, Group, NavLink, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { useMe, type PermissionName } from '../session/me';
import { ErrorAlert } from './ErrorAlert';
import { TeamSwitcher } from './TeamSwitcher';

/** The sections, each shown to roles with its permission (the API's, from /api/me). */
const SECTIONS: Array<{ to: string; label: string; permission: PermissionName }> = [
  { to: '/connections', label: 'Connections', permission: 'manage connections' },
  { to: '/backups', label: 'Backups', permission: 'view backups' },
  { to: '/compare', label: 'Compare', permission: 'view backups' },
  { to: '/restore', label: 'Restore', permission: 'restore' },
];

/** The first section the signed-in role may open: where `/` leads. */
export function HomeRedirect() {
  const me = useMe();
  if (!me.data) return null;
  const home = SECTIONS.find((section) => me.data.current_team.permissions.includes(section.permission));
  return <Navigate to={home?.to ?? '/backups'} replace />;
}

/** The signed-in frame: navigation, sign-out, and the current screen. */
export function Layout() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api().POST('/api/auth/sign-out');
    queryClient.clear();
    navigate('/sign-in');
  };
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 200, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Title order={2} size="h4">
            idp-backup
          </Title>
          <Group>
            {me.data?.user && <span>{me.data.user.email}</span>}
            <TeamSwitcher />
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
        {SECTIONS.filter((section) => me.data?.current_team.permissions.includes(section.permission)).map(
          (section) => (
            <NavLink
              key={section.to}
              component={Link}
              to={section.to}
              label={section.label}
              active={location.pathname.startsWith(section.to)}
            />
          ),
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The screen loads beside the session check; its actions appear once the permissions are known. */}
        {me.error ? <ErrorAlert error={me.error} /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}
