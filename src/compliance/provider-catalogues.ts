import type { Check } from '@libs/compliance/compliance-types.js';
import { OKTA_CHECKS } from '@libs/providers/okta/compliance/index.js';

/**
 * Each provider's compliance checks. A provider without its own yet (Okta Workflows, Entra ID)
 * gets the service's checks only; its other controls answer `manual`.
 */
export const PROVIDER_CATALOGUES: Readonly<Record<string, readonly Check[]>> = {
  okta: OKTA_CHECKS,
};
