import { Injectable } from '@nestjs/common';
import { readinessScore, resilienceScore } from '@libs/compliance/resilience-score.js';
import { supportedTypes } from '@app/backups/included-types.js';
import type { Actor } from '@app/common/actor.js';
import { NotFoundError } from '@app/common/errors.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import type { ReadinessDto, ReadinessEntryDto, ResilienceDto } from './dto/scores.dto.js';
import { type ConnectionFacts, ScoresRepository } from './scores.repository.js';

/** Hours between scheduled backups by frequency: the schedule's RPO. */
const SCHEDULE_HOURS: Readonly<Record<string, number>> = { hourly: 1, daily: 24, weekly: 168, monthly: 744 };

/**
 * Resilience and readiness scores (spec "Scores", docs/scores.md): computed from our own
 * records and the stored drift readings; never calls a provider.
 */
@Injectable()
export class ScoresService {
  constructor(private readonly scores: ScoresRepository) {}

  /** @throws NotFoundError for a connection the team cannot see */
  async resilience(actor: Actor, connectionId: string): Promise<ResilienceDto> {
    const [facts] = await this.scores.facts(actor.teamId, connectionId);
    if (!facts) throw new NotFoundError('Connection');
    return resilienceOf(facts);
  }

  /** Every connection of the team; the team score weights each by its last backup's resource count. */
  async readiness(actor: Actor): Promise<ReadinessDto> {
    const perConnection = (await this.scores.facts(actor.teamId)).map(
      (facts): ReadinessEntryDto & { weight: number } => {
        // A reading taken before the last backup counted changes that backup now holds.
        const current = facts.drift?.since.getTime() === facts.lastBackupAt?.getTime() ? facts.drift : null;
        const drift = current && {
          changes: current.changes,
          bySeverity: current.bySeverity,
          checkedAt: current.checkedAt.toISOString(),
          since: current.since.toISOString(),
          ...(current.error ? { error: current.error } : {}),
        };
        return {
          connectionId: facts.connectionId,
          score: readinessScore(resilienceOf(facts).score, drift),
          lastBackupAt: facts.lastBackupAt?.toISOString() ?? null,
          drift,
          weight: Math.max(1, facts.resourceCount),
        };
      },
    );
    const total = perConnection.reduce((sum, c) => sum + c.weight, 0);
    const score =
      total === 0 ? 0 : Math.round(perConnection.reduce((sum, c) => sum + c.score * c.weight, 0) / total);
    return { score, perConnection: perConnection.map(({ weight: _weight, ...entry }) => entry) };
  }
}

function resilienceOf(facts: ConnectionFacts): ResilienceDto {
  return resilienceScore({
    now: new Date(),
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
