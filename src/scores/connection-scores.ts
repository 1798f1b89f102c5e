import { readinessScore, resilienceScore } from '@libs/compliance/resilience-score.js';
import { supportedTypes } from '@app/backups/included-types.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import type { ReadinessEntryDto, ResilienceDto } from './dto/scores.dto.js';
import type { ConnectionFacts } from './scores.repository.js';

/** Hours between scheduled backups by frequency: the schedule's RPO. */
const SCHEDULE_HOURS: Readonly<Record<string, number>> = { hourly: 1, daily: 24, weekly: 168, monthly: 744 };

/** A connection's resilience at `now` (docs/scores.md; formulas in libs/compliance/resilience-score.ts). */
export function resilienceOf(facts: ConnectionFacts, now: Date): ResilienceDto {
  return resilienceScore({
    now,
    lastBackupAt: facts.lastBackupAt,
    scheduleHours: facts.scheduleFrequency ? SCHEDULE_HOURS[facts.scheduleFrequency] : null,
    completedLast30Days: facts.completed30,
    failedLast30Days: facts.failed30,
    capturedTypes: facts.resourceTypes,
    supportedTypes: supportedTypes(facts.provider as ProviderKind),
    lastRestoreAt: facts.lastRestoreAt,
    verified: facts.lastBackupVerified,
    retentionDays: facts.retentionDays,
  });
}

/**
 * A connection's readiness entry at `now`: its resilience less the drift read since its last backup
 * (docs/scores.md "GET /api/scores/readiness"); a drift reading taken before that backup is ignored.
 * A reading whose log no longer reached back to the backup says from when it counted, and why.
 */
export function readinessEntryOf(facts: ConnectionFacts, now: Date): ReadinessEntryDto {
  // A reading taken before the last backup counted changes that backup now holds.
  const current = facts.drift?.since.getTime() === facts.lastBackupAt?.getTime() ? facts.drift : null;
  const drift = current && {
    changes: current.changes,
    bySeverity: current.bySeverity,
    checkedAt: current.checkedAt.toISOString(),
    since: current.since.toISOString(),
    countedFrom: (current.countedFrom ?? current.since).toISOString(),
    ...(current.incompleteReason ? { incompleteReason: current.incompleteReason } : {}),
    ...(current.error ? { error: current.error } : {}),
  };
  return {
    connectionId: facts.connectionId,
    score: readinessScore(resilienceOf(facts, now).score, drift),
    lastBackupAt: facts.lastBackupAt?.toISOString() ?? null,
    drift,
  };
}
