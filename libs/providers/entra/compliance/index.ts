import { APP_CHECKS } from './app-checks.js';
import { CONDITIONAL_ACCESS_CHECKS } from './conditional-access-checks.js';
import type { EntraCheck } from './entra-outcomes.js';
import { METHOD_CHECKS } from './method-checks.js';
import { MONITORING_CHECKS } from './monitoring-checks.js';
import { PRIVILEGE_CHECKS } from './privilege-checks.js';
import { ROLE_CHECKS } from './role-checks.js';
import { TENANT_CHECKS } from './tenant-checks.js';

/**
 * Every Microsoft Entra ID compliance check, each implementing one policy of CISA's SCuBA
 * Microsoft Entra ID baseline (`MS.AAD.*`) or of CIS Microsoft 365 Foundations' Entra section,
 * one per capability of libs/compliance/check-keys.ts (docs/compliance.md "Microsoft Entra ID").
 */
export const ENTRA_CHECKS: readonly EntraCheck[] = [
  ...CONDITIONAL_ACCESS_CHECKS,
  ...METHOD_CHECKS,
  ...APP_CHECKS,
  ...TENANT_CHECKS,
  ...ROLE_CHECKS,
  ...PRIVILEGE_CHECKS,
  ...MONITORING_CHECKS,
];
