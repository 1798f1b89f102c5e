import { AppShell, Button, Group, NavLink, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { useMe } from '../session/me';
import { ErrorAlert } from './ErrorAlert';

const SECTIONS = [
  { to: '/connections', label: 'Connections' },
  { to: '/backups', label: 'Backups' },
  { to: '/compare', label: 'Compare' },
  { to: '/restore', label: 'Restore' },
];

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
            {me.data && <span>Role: {me.data.role}</span>}
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
        {SECTIONS.map((section) => (
          <NavLink
            key={section.to}
            component={Link}
            to={section.to}
            label={section.label}
            active={location.pathname.startsWith(section.to)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The screen loads beside the session check; its actions appear once the permissions are known. */}
        {me.error ? <ErrorAlert error={me.error} /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}
