import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { useMe, type PermissionName } from '../session/me';
import { layoutMessages as text } from '../messages/layout';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { DeletionBanner } from './DeletionBanner';
import { ErrorAlert } from './ErrorAlert';
import { NotificationBadge } from './NotificationBadge';
import { TeamSwitcher } from './TeamSwitcher';

/** The sections, each shown to roles with its permission (the API's, from /api/me). */
const SECTIONS: Array<{ to: string; label: string; permission: PermissionName }> = [
  { to: '/connections', label: text.nav.connections, permission: 'manage connections' },
  { to: '/backups', label: text.nav.backups, permission: 'view backups' },
  { to: '/compare', label: text.nav.compare, permission: 'view backups' },
  { to: '/restore', label: text.nav.restore, permission: 'restore' },
  { to: '/drills', label: text.nav.drills, permission: 'view backups' },
  { to: '/workflows', label: text.nav.workflows, permission: 'view backups' },
  { to: '/compliance', label: text.nav.compliance, permission: 'compliance' },
  { to: '/scores', label: text.nav.scores, permission: 'view backups' },
  { to: '/audit', label: text.nav.audit, permission: 'export' },
  { to: '/notifications', label: text.nav.notifications, permission: 'view notifications' },
  { to: '/team', label: text.nav.team, permission: 'manage team' },
  { to: '/account', label: text.nav.account, permission: 'export' },
  { to: '/approvals', label: text.nav.approvals, permission: 'restore' },
];

/** The first section the signed-in role may open: where `/` leads. */
export function HomeRedirect() {
  const me = useMe();
  if (!me.data) return null;
  const home = SECTIONS.find((section) => me.data.current_team.permissions.includes(section.permission));
  return <Navigate to={home?.to ?? '/backups'} replace />;
}

/**
 * The signed-in frame: navigation, the theme switch, sign-out, and the current screen. Below
 * Mantine's `sm` breakpoint (48em, 768 px) the navigation folds behind a burger button and the
 * address hides, so a 390 px phone keeps the whole width for the screen.
 */
export function Layout() {
  const me = useMe();
  const [navigationOpened, navigation] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api().POST('/api/auth/sign-out');
    queryClient.clear();
    navigate('/sign-in');
  };
  // Beside the team switch they need about 500 px: below `sm` they move into the navigation.
  const accountActions = (
    <>
      <ColorSchemeToggle />
      <Button variant="default" size="xs" onClick={signOut}>
        {text.signOut}
      </Button>
    </>
  );
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !navigationOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger
              opened={navigationOpened}
              onClick={navigation.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={text.openNavigation}
              aria-expanded={navigationOpened}
            />
            <Title order={2} size="h4">
              {text.productName}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {me.data?.user && <Text visibleFrom="md">{me.data.user.email}</Text>}
            <TeamSwitcher />
            <NotificationBadge />
            <Group gap="xs" wrap="nowrap" visibleFrom="sm">
              {accountActions}
            </Group>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={text.sections}>
        {SECTIONS.filter((section) => me.data?.current_team.permissions.includes(section.permission)).map(
          (section) => (
            <NavLink
              key={section.to}
              component={Link}
              to={section.to}
              label={section.label}
              active={location.pathname.startsWith(section.to)}
              onClick={navigation.close}
            />
          ),
        )}
        <Group gap="xs" mt="md" hiddenFrom="sm">
          {accountActions}
        </Group>
      </AppShell.Navbar>
      <AppShell.Main>
        <DeletionBanner />
        {/* The screen loads beside the session check; its actions appear once the permissions are known. */}
        {me.error ? <ErrorAlert error={me.error} /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}
