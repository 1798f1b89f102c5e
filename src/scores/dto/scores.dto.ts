import type { Drift, ResilienceScore } from '@libs/compliance/resilience-score.js';

/** GET /api/scores/resilience (spec "Scores"). */
export type ResilienceDto = ResilienceScore;

/** One connection in GET /api/scores/readiness (spec "Readiness entry"). */
export interface ReadinessEntryDto {
  connectionId: string;
  score: number;
  /** ISO 8601, null before the first completed backup */
  lastBackupAt: string | null;
  /** changes since the last backup as the drift job last read them; null before its first reading */
  drift: (Drift & { since: string; error?: string }) | null;
}

/** GET /api/scores/readiness (spec "Scores"). */
export interface ReadinessDto {
  score: number;
  perConnection: ReadinessEntryDto[];
}
