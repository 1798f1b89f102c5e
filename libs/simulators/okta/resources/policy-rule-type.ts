/**
 * The rule `type` that goes with a policy `type` (OpenAPI PolicyRule discriminator): the same
 * word, except Okta sign-on policies whose rules are `SIGN_ON`.
 */
export function ruleTypeFor(policyType: string): string {
  return policyType === 'OKTA_SIGN_ON' ? 'SIGN_ON' : policyType;
}
