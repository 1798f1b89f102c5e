import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { readinessEntryOf, resilienceOf } from './connection-scores.js';
import type { ScoreHistoryDto } from './dto/score-history.dto.js';
import type { ScoreReadingCause } from './score-reading.entity.js';
import { ScoreHistoryRepository } from './score-history.repository.js';
import { ScoresRepository } from './scores.repository.js';

const DAY_MS = 86_400_000;

/**
 * Resilience and readiness over time (docs/scores.md "History"): readings taken by the score-history job
 * (daily, and after each completed backup) from the same facts the current scores read, and the route
 * that answers them.
 */
@Injectable()
export class ScoreHistoryService {
  constructor(
    private readonly scores: ScoresRepository,
    private readonly history: ScoreHistoryRepository,
    private readonly connections: ConnectionsService,
  ) {}

  /**
   * The connection's readings of the last `days` days, oldest first.
   * @throws NotFoundError for a connection the team cannot see
   */
  async pointsOf(actor: Actor, connectionId: string, days: number): Promise<ScoreHistoryDto> {
    await this.connections.getRef(actor.teamId, connectionId);
    const since = new Date(Date.now() - days * DAY_MS);
    const readings = await this.history.list(actor.teamId, connectionId, since);
    return {
      points: readings.map((r) => ({
        at: r.at.toISOString(),
        resilience: r.resilience,
        readiness: r.readiness,
      })),
    };
  }

  /**
   * Stores the scores at `now` of every connection (all teams, or `teamId`'s connection `connectionId`).
   * The facts' 30-day windows are counted on the database's clock, recency on `now`.
   * @returns how many readings were stored (a daily one already taken that UTC day is not)
   */
  async record(
    cause: ScoreReadingCause,
    now: Date,
    only?: { teamId: string; connectionId: string },
  ): Promise<number> {
    const facts = await this.scores.facts(only?.teamId ?? null, only?.connectionId);
    return this.history.insert(
      now,
      cause,
      facts.map((f) => ({
        teamId: f.teamId,
        connectionId: f.connectionId,
        resilience: resilienceOf(f, now).score,
        readiness: readinessEntryOf(f, now).score,
      })),
    );
  }

  /** Deletes readings past their team's retention (docs/scores.md "History"); @returns how many. */
  prune(now: Date): Promise<number> {
    return this.history.prune(now);
  }
}
