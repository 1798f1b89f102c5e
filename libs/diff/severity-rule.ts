import type { ChangeFacts, Severity } from './change-facts.js';

/** One row of a provider's severity table: the first rule whose `applies` holds rates the change. */
export interface SeverityRule {
  /** stable id, returned with each change and listed in the provider's severity page (docs/severity.md) */
  id: string;
  severity: Severity;
  /** what the rule catches, in a reviewer's words */
  description: string;
  applies: (facts: ChangeFacts) => boolean;
}

/**
 * Rates one change by the first rule of `rules` that applies: a provider's table ends with a
 * catch-all rule, so every change gets a severity.
 * @throws Error when no rule applies (a table without its catch-all)
 */
export function rateChange(
  rules: readonly SeverityRule[],
  facts: ChangeFacts,
): { severity: Severity; rule: string } {
  const rule = rules.find((candidate) => candidate.applies(facts));
  if (!rule) throw new Error(`no severity rule applies to a ${facts.action} ${facts.resourceType}`);
  return { severity: rule.severity, rule: rule.id };
}
