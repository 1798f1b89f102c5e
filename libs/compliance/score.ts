import type { Finding, Severity } from './compliance-types.js';

/** Weight of a finding in the score by severity (docs/compliance.md "Score"). */
export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = {
  critical: 10,
  high: 5,
  medium: 3,
  low: 1,
  info: 0,
};

/** Credit a status earns: a warning (a recommended value missed) earns half. */
const CREDIT: Readonly<Record<string, number>> = { pass: 1, warning: 0.5, fail: 0 };

/**
 * The compliance score, 0 to 100 (integer): the severity-weighted share of applicable findings
 * that pass, a warning counting half. `manual` and `not_applicable` findings are left out; with
 * none applicable the score is 100 (nothing failed).
 */
export function complianceScore(findings: readonly Pick<Finding, 'status' | 'severity'>[]): number {
  let earned = 0;
  let possible = 0;
  for (const { status, severity } of findings) {
    const credit = CREDIT[status];
    if (credit === undefined) continue;
    const weight = SEVERITY_WEIGHTS[severity];
    earned += credit * weight;
    possible += weight;
  }
  return possible === 0 ? 100 : Math.round((100 * earned) / possible);
}
