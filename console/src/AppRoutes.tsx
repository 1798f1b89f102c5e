import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { HomeRedirect, Layout } from './components/Layout';
import { onSignedOut } from './session/session-events';
import { BackupDetailScreen } from './screens/BackupDetailScreen';
import { BackupsScreen } from './screens/BackupsScreen';
import { CompareScreen } from './screens/CompareScreen';
import { ComplianceScreen } from './screens/compliance/ComplianceScreen';
import { ScoresScreen } from './screens/scores/ScoresScreen';
import { ConnectionsScreen } from './screens/ConnectionsScreen';
import { RestoreDetailScreen } from './screens/RestoreDetailScreen';
import { RestoreScreen } from './screens/RestoreScreen';
import { SignInScreen } from './screens/SignInScreen';
import { TimelineScreen } from './screens/TimelineScreen';
import { UndoScreen } from './screens/UndoScreen';
import { AuditScreen } from './screens/audit/AuditScreen';
import { DiffRedirect } from './screens/notifications/DiffRedirect';
import { InboxScreen } from './screens/notifications/InboxScreen';
import { PreferencesScreen } from './screens/notifications/PreferencesScreen';
import { TeamScreen } from './screens/team/TeamScreen';
import { AccountScreen } from './screens/account/AccountScreen';
import { DrillDetailScreen } from './screens/drills/DrillDetailScreen';
import { DrillsScreen } from './screens/drills/DrillsScreen';
import { NewsletterLinkScreen } from './screens/newsletter/NewsletterLinkScreen';
import { NewsletterSubscribeScreen } from './screens/newsletter/NewsletterSubscribeScreen';
import { WorkflowsRestoreScreen } from './screens/workflows/WorkflowsRestoreScreen';
import { WorkflowsScreen } from './screens/workflows/WorkflowsScreen';
import { ApprovalsScreen } from './screens/approvals/ApprovalsScreen';
import { ApprovalDetailScreen } from './screens/approvals/ApprovalDetailScreen';

/** The console's screens; every one but sign-in sits in the signed-in layout. */
export function AppRoutes() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSignedOut(() => {
        queryClient.clear();
        navigate('/sign-in', { replace: true });
      }),
    [navigate, queryClient],
  );
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInScreen />} />
      <Route path="/newsletter" element={<NewsletterSubscribeScreen />} />
      <Route path="/newsletter/confirm" element={<NewsletterLinkScreen action="confirm" />} />
      <Route path="/newsletter/unsubscribe" element={<NewsletterLinkScreen action="unsubscribe" />} />
      <Route element={<Layout />}>
        <Route index element={<HomeRedirect />} />
        <Route path="/connections" element={<ConnectionsScreen />} />
        <Route path="/backups" element={<BackupsScreen />} />
        <Route path="/backups/:id" element={<BackupDetailScreen />} />
        <Route path="/compare" element={<CompareScreen />} />
        <Route path="/timeline" element={<TimelineScreen />} />
        <Route path="/restore" element={<RestoreScreen />} />
        <Route path="/restores/:id" element={<RestoreDetailScreen />} />
        <Route path="/undo" element={<UndoScreen />} />
        <Route path="/notifications" element={<InboxScreen />} />
        <Route path="/settings/notifications" element={<PreferencesScreen />} />
        <Route path="/audit" element={<AuditScreen />} />
        <Route path="/diff" element={<DiffRedirect />} />
        <Route path="/compliance" element={<ComplianceScreen />} />
        <Route path="/scores" element={<ScoresScreen />} />
        <Route path="/team" element={<TeamScreen />} />
        <Route path="/account" element={<AccountScreen />} />
        <Route path="/drills" element={<DrillsScreen />} />
        <Route path="/drills/:id" element={<DrillDetailScreen />} />
        <Route path="/workflows" element={<WorkflowsScreen />} />
        <Route path="/workflows/restores/:id" element={<WorkflowsRestoreScreen />} />
        <Route path="/approvals" element={<ApprovalsScreen />} />
        <Route path="/approvals/:id" element={<ApprovalDetailScreen />} />
      </Route>
    </Routes>
  );
}
