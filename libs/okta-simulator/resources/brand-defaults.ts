import type { Json } from '../store/entry.js';
import { pairKey, type OrgState } from '../store/org-state.js';

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
 * themes are recorded), every email template (recipients ALL_USERS) and the default sign-out
 * page. Pages and email content stay default (404 / no customization) until customized.
 */
export function provisionBrand(
  state: OrgState,
  brandId: string,
  themeId: string | undefined,
  baseUrl: string,
): void {
  if (themeId !== undefined)
    state.brandThemes.of(brandId).set(themeId, { data: defaultTheme(themeId, baseUrl) });
  const templates = state.emailTemplates.of(brandId);
  for (const name of EMAIL_TEMPLATE_NAMES)
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
