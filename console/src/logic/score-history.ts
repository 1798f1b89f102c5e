import type { Schemas } from '../api/client';

export type ScorePoint = Schemas['ScorePoint'];

/** How one series moved over the period: its first and last reading, its lowest and highest. */
export interface SeriesRange {
  first: number;
  last: number;
  min: number;
  max: number;
}

/**
 * The first, last, lowest and highest value of `series` over `points` (the API's order, oldest
 * first), for the chart's text alternative; null without points.
 */
export function seriesRange(
  points: readonly ScorePoint[],
  series: 'resilience' | 'readiness',
): SeriesRange | null {
  if (points.length === 0) return null;
  const values = points.map((p) => p[series]);
  return { first: values[0], last: values.at(-1)!, min: Math.min(...values), max: Math.max(...values) };
}

/** The points as the chart plots them: `t` the reading's instant in epoch milliseconds on a time axis. */
export function chartRows(points: readonly ScorePoint[]): Array<ScorePoint & { t: number }> {
  return points.map((p) => ({ ...p, t: Date.parse(p.at) }));
}

/**
 * An epoch-millisecond instant as a short day in the reader's locale and zone: "7 Dec"; "" for a value
 * that is no instant (the chart's axis asks for its ticks before it knows its domain).
 */
export function formatDay(ms: number, timeZone?: string): string {
  if (!Number.isFinite(ms)) return '';
  return new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone }).format(
    new Date(ms),
  );
}
