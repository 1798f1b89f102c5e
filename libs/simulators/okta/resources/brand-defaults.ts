import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { pairKey, type OrgState } from '@libs/simulators/okta/store/org-state.js';

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
 * The `defaultApp` Okta answers for a brand: every property present, `null` when unset
 * (recorded: createBrand answers all three null, and a PUT of `defaultApp: {}` answers them null).
 */
export function brandDefaultApp(body: unknown): Json {
  const given = (body !== null && typeof body === 'object' ? body : {}) as Json;
  return {
    appInstanceId: given.appInstanceId ?? null,
    appLinkName: given.appLinkName ?? null,
    classicApplicationUri: given.classicApplicationUri ?? null,
  };
}

/**
 * What createBrand gives a new brand beyond its name (recorded POST answers in the fixtures):
 * no custom privacy policy URL (`null`, management.yaml's `default: null`), no consent, "Powered
 * by Okta" kept, an unset default app, and no `locale` until a PUT sets one.
 */
export function newBrandSettings(): Json {
  return {
    isDefault: false,
    removePoweredByOkta: false,
    customPrivacyPolicyUrl: null,
    agreeToCustomPrivacyPolicy: false,
    defaultApp: brandDefaultApp(undefined),
  };
}

/**
 * A brand as replaceBrand leaves it: BrandRequest replaces every setting, so one left out takes
 * its default (recorded: a PUT with `customPrivacyPolicyUrl: ""` answers `null`, one without
 * `locale` answers none, `defaultApp: {}` answers its properties `null`); `id` and `isDefault`
 * stay Okta's.
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
  return {
    id: current.id,
    name: body.name,
    isDefault: current.isDefault,
    removePoweredByOkta: body.removePoweredByOkta === true,
    customPrivacyPolicyUrl: url || null,
    agreeToCustomPrivacyPolicy: body.agreeToCustomPrivacyPolicy === true,
    ...(typeof body.locale === 'string' ? { locale: body.locale } : {}),
    defaultApp: brandDefaultApp(body.defaultApp),
    ...(typeof body.emailDomainId === 'string' ? { emailDomainId: body.emailDomainId } : {}),
  };
}
