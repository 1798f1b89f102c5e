import type { Check } from '@libs/compliance/compliance-types.js';
import { DIRECTORY_CHECKS } from './directory-checks.js';
import { INTEGRATION_CHECKS } from './integration-checks.js';
import { MFA_CHECKS } from './mfa-checks.js';
import { PASSWORD_CHECKS } from './password-checks.js';
import { SESSION_CHECKS } from './session-checks.js';

/** Every Okta compliance check, one per capability of libs/compliance/check-keys.ts. */
export const OKTA_CHECKS: readonly Check[] = [
  ...PASSWORD_CHECKS,
  ...SESSION_CHECKS,
  ...MFA_CHECKS,
  ...DIRECTORY_CHECKS,
  ...INTEGRATION_CHECKS,
];
