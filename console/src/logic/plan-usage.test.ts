import { describe, expect, it } from 'vitest';
import { countedRows, listedRows, type PlanView } from './plan-usage';

const free: PlanView = {
  limits: {
    connections: 1,
    provider_kinds: ['okta'],
    manual_backups_per_day: 3,
    schedule_frequencies: ['daily', 'weekly', 'monthly'],
    compliance_frameworks: ['soc2'],
    exports_per_month: 1,
    members: 3,
  },
  usage: { connections: 1, manual_backups_today: 0, exports_this_month: 0, members: 2 },
};

describe('countedRows', () => {
  it('pairs each counted limit with its usage and marks those reached', () => {
    expect(countedRows(free)).toEqual([
      { key: 'connections', used: 1, limit: 1, reached: true },
      { key: 'manual_backups', used: 0, limit: 3, reached: false },
      { key: 'exports', used: 0, limit: 1, reached: false },
      { key: 'members', used: 2, limit: 3, reached: false },
    ]);
  });
  it('never reaches a limit the plan does not set', () => {
    const open = { ...free, limits: { ...free.limits, connections: null } };
    expect(countedRows(open)[0]).toEqual({ key: 'connections', used: 1, limit: null, reached: false });
  });
});

describe('listedRows', () => {
  it('lists the values allowed, null for all', () => {
    expect(listedRows({ ...free, limits: { ...free.limits, compliance_frameworks: null } })).toEqual([
      { key: 'provider_kinds', allowed: ['okta'] },
      { key: 'schedule_frequencies', allowed: ['daily', 'weekly', 'monthly'] },
      { key: 'compliance_frameworks', allowed: null },
    ]);
  });
});
