import type { CheckKey } from '@libs/compliance/check-keys.js';
import type { CheckParams, Severity } from '@libs/compliance/compliance-types.js';

/** The frameworks a check can be run against (spec "Compliance"). */
export const FRAMEWORK_IDS = ['soc2', 'hipaa', 'pci_dss', 'nist', 'iso27001', 'cis_controls'] as const;
export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

/**
 * One control of a framework judged by one check with the framework's thresholds. A control
 * judged by several checks (MFA for the admin console and for all apps) has one row each.
 */
export interface ControlMapping {
  control: string;
  check: CheckKey;
  severity: Severity;
  /** the requirement in a sentence, with its threshold and where the number comes from */
  requirement: string;
  params?: CheckParams;
}

export interface Framework {
  id: FrameworkId;
  name: string;
  /** the edition the thresholds come from, e.g. `v4.0.1` */
  version: string;
  controls: readonly ControlMapping[];
}

/** A control row; `params` are the thresholds of the framework's text (docs/compliance.md). */
export function control(
  id: string,
  check: CheckKey,
  severity: Severity,
  requirement: string,
  params?: CheckParams,
): ControlMapping {
  return params === undefined
    ? { control: id, check, severity, requirement }
    : { control: id, check, severity, requirement, params };
}
