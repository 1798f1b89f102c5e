import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { NotFoundError } from '@app/common/errors.js';
import { readinessEntryOf, resilienceOf } from './connection-scores.js';
import type { ReadinessDto, ResilienceDto } from './dto/scores.dto.js';
import { ScoresRepository } from './scores.repository.js';

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
    return resilienceOf(facts, new Date());
  }

  /** Every connection of the team; the team score weights each by its last backup's resource count. */
  async readiness(actor: Actor): Promise<ReadinessDto> {
    const now = new Date();
    const perConnection = (await this.scores.facts(actor.teamId)).map((facts) => ({
      ...readinessEntryOf(facts, now),
      weight: Math.max(1, facts.resourceCount),
    }));
    const total = perConnection.reduce((sum, c) => sum + c.weight, 0);
    const score =
      total === 0 ? 0 : Math.round(perConnection.reduce((sum, c) => sum + c.score * c.weight, 0) / total);
    return { score, perConnection: perConnection.map(({ weight: _weight, ...entry }) => entry) };
  }
}
