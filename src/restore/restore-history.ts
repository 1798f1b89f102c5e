import { Injectable } from '@nestjs/common';
import { RestoresRepository } from './restores.repository.js';

/**
 * The read other features make of a team's restore history, without the restore workflow
 * (RestoreService, its jobs and packages): compliance's tested-restore evidence.
 */
@Injectable()
export class RestoreHistory {
  constructor(private readonly restores: RestoresRepository) {}

  /**
   * When the connection's last successful restore finished, at or before `atOrBefore`; null
   * when none did. Scoped to `teamId`: another team's connection has none.
   */
  lastCompletedAt(teamId: string, connectionId: string, atOrBefore: Date): Promise<Date | null> {
    return this.restores.lastCompletedAt(teamId, connectionId, atOrBefore);
  }
}
