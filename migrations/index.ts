import type { MigrationInterface } from 'typeorm';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { InitialSchema1763800000000 } from './1763800000000-InitialSchema.js';
import { CreateSchedules1763900000000 } from './1763900000000-CreateSchedules.js';
import { CreateSignIn1764100000000 } from './1764100000000-CreateSignIn.js';
import { CreateTeamInvitations1764200000000 } from './1764200000000-CreateTeamInvitations.js';
import { CreateRestores1764300000000 } from './1764300000000-CreateRestores.js';
import { CreateCompliance1764400000000 } from './1764400000000-CreateCompliance.js';
import { CreateConnectionDrift1764500000000 } from './1764500000000-CreateConnectionDrift.js';
import { CreateAuditEvents1764600000000 } from './1764600000000-CreateAuditEvents.js';
import { CreateNotifications1764700000000 } from './1764700000000-CreateNotifications.js';
import { sealConnectionCredentials } from './1764900000000-SealConnectionCredentials.js';
import { CreateAccountExports1765100000000 } from './1765100000000-CreateAccountExports.js';
import { CreateAccountDeletions1765200000000 } from './1765200000000-CreateAccountDeletions.js';
import { ExtendPlans1765300000000 } from './1765300000000-ExtendPlans.js';
import { CreateNewsletter1765400000000 } from './1765400000000-CreateNewsletter.js';
import { CreateRestoreDrills1765500000000 } from './1765500000000-CreateRestoreDrills.js';
import { CreateReports1765600000000 } from './1765600000000-CreateReports.js';
import { CreateRestorePreviews1765700000000 } from './1765700000000-CreateRestorePreviews.js';
import { AddScheduleWeeklyVerification1765800000000 } from './1765800000000-AddScheduleWeeklyVerification.js';
import { AddRestorePackage1765900300000 } from './1765900300000-AddRestorePackage.js';
import { AddRestoreEnforce1766000000000 } from './1766000000000-AddRestoreEnforce.js';
import { AddBackupDiscardPending1766100000000 } from './1766100000000-AddBackupDiscardPending.js';
import { AddBackupsConnectionIndex1766200000000 } from './1766200000000-AddBackupsConnectionIndex.js';
import { CreateComplianceChecks1766300000000 } from './1766300000000-CreateComplianceChecks.js';
import { DropConnectionProviderCheck1766310000000 } from './1766310000000-DropConnectionProviderCheck.js';
import { RestoreOptions1766320000000 } from './1766320000000-RestoreOptions.js';
import { ScheduleRetention1766330000000 } from './1766330000000-ScheduleRetention.js';
import { AddRestoreUndo1796675556864 } from './1796675556864-AddRestoreUndo.js';
import { CreateChangeAttributions1796675117313 } from './1796675117313-CreateChangeAttributions.js';
import { CreateScoreReadings1766340000000 } from './1766340000000-CreateScoreReadings.js';
import { CreateApprovals1796674935533 } from './1796674935533-CreateApprovals.js';
import { AddDriftLogWindow1796675162753 } from './1796675162753-AddDriftLogWindow.js';
import { RestoreIntoAnotherOrg1796675116339 } from './1796675116339-RestoreIntoAnotherOrg.js';
import { SandboxDrills1796676877299 } from './1796676877299-SandboxDrills.js';
import { ScheduleSandboxDrill1796678721518 } from './1796678721518-ScheduleSandboxDrill.js';
import { CreateChangeAttributionReads1796686158064 } from './1796686158064-CreateChangeAttributionReads.js';
import { UndoPreviewJobs1796687162783 } from './1796687162783-UndoPreviewJobs.js';

/**
 * Every migration, oldest first; TypeORM runs the pending ones at boot (`migrationsRun`). Those
 * that seal secrets again get the master key ring.
 */
export function migrations(keyRing: KeyRing): Array<new () => MigrationInterface> {
  return [
    InitialSchema1763800000000,
    CreateSchedules1763900000000,
    CreateSignIn1764100000000,
    CreateTeamInvitations1764200000000,
    CreateRestores1764300000000,
    CreateCompliance1764400000000,
    CreateConnectionDrift1764500000000,
    CreateAuditEvents1764600000000,
    CreateNotifications1764700000000,
    sealConnectionCredentials(keyRing),
    CreateAccountExports1765100000000,
    CreateAccountDeletions1765200000000,
    ExtendPlans1765300000000,
    CreateNewsletter1765400000000,
    CreateRestoreDrills1765500000000,
    CreateReports1765600000000,
    CreateRestorePreviews1765700000000,
    AddScheduleWeeklyVerification1765800000000,
    AddRestorePackage1765900300000,
    AddRestoreEnforce1766000000000,
    AddBackupDiscardPending1766100000000,
    AddBackupsConnectionIndex1766200000000,
    CreateComplianceChecks1766300000000,
    DropConnectionProviderCheck1766310000000,
    RestoreOptions1766320000000,
    ScheduleRetention1766330000000,
    CreateScoreReadings1766340000000,
    CreateApprovals1796674935533,
    AddDriftLogWindow1796675162753,
    CreateChangeAttributions1796675117313,
    AddRestoreUndo1796675556864,
    RestoreIntoAnotherOrg1796675116339,
    SandboxDrills1796676877299,
    ScheduleSandboxDrill1796678721518,
    CreateChangeAttributionReads1796686158064,
    UndoPreviewJobs1796687162783,
  ];
}
