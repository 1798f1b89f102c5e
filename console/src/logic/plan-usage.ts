/** The numeric limits `GET /api/me` answers with their usage (`current_team.plan`, docs/plans.md). */
export type CountedLimit = 'connections' | 'manual_backups' | 'exports' | 'members';

/** The list-valued limits: which provider kinds, schedule frequencies and frameworks the plan allows. */
export type ListedLimit = 'provider_kinds' | 'schedule_frequencies' | 'compliance_frameworks';

/** The plan's shape as `GET /api/me` answers it (`PlanSummary`), the parts read here. */
export interface PlanView {
  limits: {
    connections: number | null;
    provider_kinds: string[] | null;
    manual_backups_per_day: number | null;
    schedule_frequencies: string[] | null;
    compliance_frameworks: string[] | null;
    exports_per_month: number | null;
    members: number | null;
  };
  usage: { connections: number; manual_backups_today: number; exports_this_month: number; members: number };
}

/** One counted limit: what is used, what the plan allows (null: no limit), and whether it is reached. */
export interface CountedRow {
  key: CountedLimit;
  used: number;
  limit: number | null;
  reached: boolean;
}

/** The plan's counted limits beside their usage, in the order docs/plans.md lists them. */
export function countedRows(plan: PlanView): CountedRow[] {
  const row = (key: CountedLimit, used: number, limit: number | null): CountedRow => ({
    key,
    used,
    limit,
    reached: limit !== null && used >= limit,
  });
  return [
    row('connections', plan.usage.connections, plan.limits.connections),
    row('manual_backups', plan.usage.manual_backups_today, plan.limits.manual_backups_per_day),
    row('exports', plan.usage.exports_this_month, plan.limits.exports_per_month),
    row('members', plan.usage.members, plan.limits.members),
  ];
}

/** The plan's list-valued limits: the values allowed, or null for all of them. */
export function listedRows(plan: PlanView): Array<{ key: ListedLimit; allowed: string[] | null }> {
  return (['provider_kinds', 'schedule_frequencies', 'compliance_frameworks'] as const).map((key) => ({
    key,
    allowed: plan.limits[key],
  }));
}
