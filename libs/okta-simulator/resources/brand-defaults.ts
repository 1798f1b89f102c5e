import { validationFailed } from '@libs/okta-simulator/http/okta-error.js';
import type { Json } from '@libs/okta-simulator/store/entry.js';
import { pairKey, type OrgState } from '@libs/okta-simulator/store/org-state.js';

/**
 * The email templates every brand has (Email templates API, "List all email templates"): Okta
 * defines them; a brand customizes their content per language and sets who receives each.
 */
export const EMAIL_TEMPLATE_NAMES = [
  'UserActivation',
  'UserActivationWithoutPassword',
  'ForgotPassword',
  'ForgotPasswordDenied',
  'PasswordChanged',
  'PasswordResetByAdmin',
  'SelfServiceUnlock',
  'SelfServiceUnlockOnUnlockedAccount',
  'AccountLockout',
  'ChangeEmailConfirmation',
  'EmailChangeNotification',
  'EmailChallenge',
  'EmailFactorVerification',
  'NewSignOnNotification',
  'AuthenticatorEnrolled',
  'AuthenticatorReset',
  'RegistrationActivation',
  'RegistrationEmailVerification',
  'OktaVerifyActivation',
  'PendingEmailChange',
] as const;

/** The theme a new brand starts with (recorded default theme). */
export function defaultTheme(id: string, baseUrl: string): Json {
  return {
    id,
    logo: `${baseUrl}/assets/img/logos/okta-logo.png`,
    favicon: `${baseUrl}/favicon.ico`,
    primaryColorHex: '#1662dd',
    primaryColorContrastHex: '#ffffff',
    secondaryColorHex: '#ebebed',
    secondaryColorContrastHex: '#000000',
    signInPageTouchPointVariant: 'BACKGROUND_IMAGE',
    endUserDashboardTouchPointVariant: 'FULL_THEME',
    errorPageTouchPointVariant: 'BACKGROUND_IMAGE',
    emailTemplateTouchPointVariant: 'FULL_THEME',
    loadingPageTouchPointVariant: 'NONE',
  };
}

/**
 * What Okta gives a new brand: a theme (unless `themeId` is undefined: a recorded brand's
 * themes are recorded), every email template (recipients ALL_USERS; `templateNames` when a
 * brand's recorded template list names them) and the default sign-out page. Pages and email
 * content stay default (404 / no customization) until customized.
 */
export function provisionBrand(
  state: OrgState,
  brandId: string,
  themeId: string | undefined,
  baseUrl: string,
  templateNames: readonly string[] = EMAIL_TEMPLATE_NAMES,
): void {
  if (themeId !== undefined)
    state.brandThemes.of(brandId).set(themeId, { data: defaultTheme(themeId, baseUrl) });
  const templates = state.emailTemplates.of(brandId);
  for (const name of templateNames)
    templates.set(name, { data: { name, settings: { recipients: 'ALL_USERS' } } });
  state.brandPages.of(brandId).set('sign-out', { data: { type: 'OKTA_DEFAULT' } });
}

/** Forgets everything `provisionBrand` and later customizations hung off a brand. */
export function removeBrandChildren(state: OrgState, brandId: string): void {
  for (const [name] of state.emailTemplates.peek(brandId)?.entries() ?? [])
    state.emailCustomizations.drop(pairKey(brandId, name));
  state.brandThemes.drop(brandId);
  state.emailTemplates.drop(brandId);
  state.brandPages.drop(brandId);
}

/**
 * A brand as replaceBrand leaves it: BrandRequest replaces every setting, so one left out takes
 * its default (recorded: a PUT with `customPrivacyPolicyUrl: ""` answers `null`); `id` and
 * `isDefault` stay Okta's. Recorded brands keep answering an unset URL as `null`.
 * @throws OktaError 400 E0000001 for a privacy policy URL without `agreeToCustomPrivacyPolicy`
 *   (replaceBrand)
 */
export function replacedBrand(current: Json, body: Json): Json {
  const url = typeof body.customPrivacyPolicyUrl === 'string' ? body.customPrivacyPolicyUrl : '';
  if (url !== '' && body.agreeToCustomPrivacyPolicy !== true)
    throw validationFailed(
      'agreeToCustomPrivacyPolicy',
      'agreeToCustomPrivacyPolicy: Consent is required to set a custom privacy policy URL',
    );
  const object = (value: unknown) => value !== null && typeof value === 'object';
  return {
    id: current.id,
    name: body.name,
    isDefault: current.isDefault,
    removePoweredByOkta: body.removePoweredByOkta === true,
    agreeToCustomPrivacyPolicy: body.agreeToCustomPrivacyPolicy === true,
    locale: typeof body.locale === 'string' ? body.locale : 'en',
    ...(url !== '' || 'customPrivacyPolicyUrl' in current ? { customPrivacyPolicyUrl: url || null } : {}),
    ...(object(body.defaultApp) ? { defaultApp: body.defaultApp } : {}),
    ...(typeof body.emailDomainId === 'string' ? { emailDomainId: body.emailDomainId } : {}),
  };
}
