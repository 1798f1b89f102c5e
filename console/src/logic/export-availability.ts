/** Spec "Limits": one successful account export per 7 days per team (the API's EXPORT_INTERVAL_MS). */
export const EXPORT_INTERVAL_MS = 7 * 24 * 3600 * 1000;

/**
 * Whether the team may export now: `weekly` while the last successful export is less than 7 days
 * old (the API's 429 `export_rate_limited`), `monthly` once the plan's exports of this UTC
 * calendar month are used (402 `exports_per_month`, docs/plans.md), each with the instant (ISO
 * 8601) from which the next export is possible.
 */
export type ExportAvailability = { state: 'available' } | { state: 'weekly' | 'monthly'; nextAt: string };

/**
 * Judges an export before the click as the API will judge it; when both limits hold, the one
 * that lasts longer.
 * @param lastExportAt the last successful export (audit event `account.exported`), ISO 8601, or null
 * @param exportsThisMonth `current_team.plan.usage.exports_this_month` of `GET /api/me`
 * @param exportsPerMonth `current_team.plan.limits.exports_per_month`, null for no limit
 * @param now the instant judged, milliseconds since the epoch
 */
export function exportAvailability(
  lastExportAt: string | null,
  exportsThisMonth: number,
  exportsPerMonth: number | null,
  now: number,
): ExportAvailability {
  const weeklyAt = lastExportAt ? Date.parse(lastExportAt) + EXPORT_INTERVAL_MS : null;
  const weekly = weeklyAt !== null && weeklyAt > now ? weeklyAt : null;
  const monthly =
    exportsPerMonth !== null && exportsThisMonth >= exportsPerMonth ? startOfNextUtcMonth(now) : null;
  if (monthly !== null && (weekly === null || monthly >= weekly))
    return { state: 'monthly', nextAt: new Date(monthly).toISOString() };
  if (weekly !== null) return { state: 'weekly', nextAt: new Date(weekly).toISOString() };
  return { state: 'available' };
}

/** 00:00 UTC on the 1st of the month after `now` (ms): when a calendar month's count starts again. */
function startOfNextUtcMonth(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
