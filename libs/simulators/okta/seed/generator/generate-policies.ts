import { ruleTypeFor } from '@libs/simulators/okta/resources/policy-rule-type.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import type { GeneratorContext } from './generator-context.js';
import type { People } from './generate-people.js';
import type { Zones } from './generate-network.js';

const DEFAULT_DESCRIPTION = 'The default policy applies in all situations if no other policy applies.';

const PASSWORD_SETTINGS: Json = {
  password: {
    complexity: {
      minLength: 12,
      minLowerCase: 1,
      minUpperCase: 1,
      minNumber: 1,
      minSymbol: 0,
      excludeUsername: true,
      dictionary: { common: { exclude: true } },
      excludeAttributes: [],
    },
    age: { maxAgeDays: 0, expireWarnDays: 0, minAgeMinutes: 0, historyCount: 4 },
    lockout: {
      maxAttempts: 10,
      autoUnlockMinutes: 0,
      userLockoutNotificationChannels: [],
      showLockoutFailures: false,
    },
  },
  recovery: {
    factors: {
      recovery_question: { status: 'INACTIVE', properties: { complexity: { minLength: 4 } } },
      okta_email: { status: 'ACTIVE', properties: { recoveryToken: { tokenLifetimeMinutes: 60 } } },
      okta_sms: { status: 'INACTIVE' },
      okta_call: { status: 'INACTIVE' },
    },
  },
  delegation: { options: { skipUnlock: false } },
};

/** Users may change and reset their password themselves, but an admin unlocks them. */
const PASSWORD_RULE_ACTIONS = {
  passwordChange: { access: 'ALLOW' },
  selfServicePasswordReset: { access: 'ALLOW' },
  selfServiceUnlock: { access: 'DENY' },
};

const SIGN_ON_SESSION = {
  usePersistentCookie: false,
  maxSessionIdleMinutes: 120,
  maxSessionLifetimeMinutes: 720,
};

interface RuleSpec {
  name: string;
  system?: boolean;
  priority: number;
  status?: string;
  conditions: Json | null;
  actions: Json;
}

interface PolicySpec {
  type: string;
  name: string;
  description?: string;
  system?: boolean;
  priority: number;
  conditions: Json | null;
  settings?: Json;
  rules: RuleSpec[];
}

/**
 * Real orgs answer `conditions: null` for catch-all rules and some policies; the description
 * types `conditions` as a non-nullable object, so generated objects leave it out instead.
 */
function withConditions(conditions: Json | null): Json {
  return conditions === null ? {} : { conditions };
}

function people(groupIds: string[]): Json {
  return { people: { groups: { include: groupIds } } };
}

/**
 * The policy catalogue of a typical org: each main type's default (system) policy with its
 * default rule, plus custom policies whose rules reference groups and network zones.
 */
function catalogue(p: People, zones: Zones, privileged: string, contractors: string): PolicySpec[] {
  const everyone = [p.everyoneGroupId];
  const inZone = (zoneId: string) => ({ connection: 'ZONE', include: [zoneId] });
  const offZone = (zoneId: string) => ({ connection: 'ZONE', exclude: [zoneId] });
  return [
    {
      type: 'OKTA_SIGN_ON',
      name: 'Contractor sign-on',
      description: 'MFA for contractors outside the office',
      priority: 1,
      conditions: people([contractors]),
      rules: [
        {
          name: 'MFA off the office network',
          priority: 1,
          conditions: {
            people: { users: { exclude: [] } },
            network: offZone(zones.officeZoneId),
            authContext: { authType: 'ANY' },
          },
          actions: {
            signon: {
              access: 'ALLOW',
              requireFactor: true,
              factorPromptMode: 'ALWAYS',
              primaryFactor: 'PASSWORD_IDP_ANY_FACTOR',
              rememberDeviceByDefault: false,
              session: SIGN_ON_SESSION,
            },
          },
        },
      ],
    },
    {
      type: 'OKTA_SIGN_ON',
      name: 'Default Policy',
      description: DEFAULT_DESCRIPTION,
      system: true,
      priority: 2,
      conditions: people(everyone),
      rules: [
        {
          name: 'Default Rule',
          system: true,
          priority: 1,
          conditions: { people: { users: { exclude: [] } }, network: { connection: 'ANYWHERE' } },
          actions: {
            signon: {
              access: 'ALLOW',
              requireFactor: false,
              primaryFactor: 'PASSWORD_IDP_ANY_FACTOR',
              rememberDeviceByDefault: false,
              session: SIGN_ON_SESSION,
            },
          },
        },
      ],
    },
    {
      type: 'PASSWORD',
      name: 'Privileged accounts',
      description: 'Stricter passwords for administrators',
      priority: 1,
      conditions: { ...people([privileged]), authProvider: { provider: 'OKTA' } },
      settings: PASSWORD_SETTINGS,
      rules: [
        {
          name: 'Self-service only in the office',
          priority: 1,
          conditions: { people: { users: { exclude: [] } }, network: inZone(zones.officeZoneId) },
          actions: PASSWORD_RULE_ACTIONS,
        },
      ],
    },
    {
      type: 'PASSWORD',
      name: 'Default Policy',
      description: DEFAULT_DESCRIPTION,
      system: true,
      priority: 2,
      conditions: { ...people(everyone), authProvider: { provider: 'OKTA' } },
      settings: PASSWORD_SETTINGS,
      rules: [
        {
          name: 'Default Rule',
          system: true,
          priority: 1,
          conditions: { people: { users: { exclude: [] } }, network: { connection: 'ANYWHERE' } },
          actions: PASSWORD_RULE_ACTIONS,
        },
      ],
    },
    {
      type: 'MFA_ENROLL',
      name: 'Default Policy',
      description: DEFAULT_DESCRIPTION,
      system: true,
      priority: 1,
      conditions: people(everyone),
      settings: {
        type: 'AUTHENTICATORS',
        authenticators: [
          { key: 'okta_password', enroll: { self: 'REQUIRED' } },
          { key: 'okta_email', enroll: { self: 'REQUIRED' } },
          { key: 'okta_verify', enroll: { self: 'OPTIONAL' } },
        ],
      },
      rules: [
        {
          name: 'Default Rule',
          system: true,
          priority: 99,
          conditions: { people: { users: { exclude: [] } }, network: { connection: 'ANYWHERE' } },
          actions: { enroll: { self: 'CHALLENGE' } },
        },
      ],
    },
    {
      type: 'ACCESS_POLICY',
      name: 'Sensitive apps',
      description: 'Two factors, never from blocked countries',
      priority: 1,
      conditions: null,
      rules: [
        {
          name: 'Deny blocked countries',
          priority: 1,
          conditions: { people: { groups: { include: everyone } }, network: inZone(zones.blockedZoneId) },
          actions: { appSignOn: { access: 'DENY' } },
        },
        {
          name: 'Catch-all Rule',
          system: true,
          priority: 99,
          conditions: null,
          actions: {
            appSignOn: {
              access: 'ALLOW',
              verificationMethod: { factorMode: '2FA', type: 'ASSURANCE', reauthenticateIn: 'PT12H' },
            },
          },
        },
      ],
    },
    {
      type: 'PROFILE_ENROLLMENT',
      name: 'Default Policy',
      system: true,
      priority: 1,
      conditions: null,
      rules: [
        {
          name: 'Catch-all Rule',
          system: true,
          priority: 99,
          conditions: null,
          actions: {
            profileEnrollment: {
              access: 'DENY',
              profileAttributes: [
                { name: 'email', label: 'Email', required: true },
                { name: 'firstName', label: 'First name', required: true },
                { name: 'lastName', label: 'Last name', required: true },
              ],
              unknownUserAction: 'DENY',
              activationRequirements: { emailVerification: true },
            },
          },
        },
      ],
    },
    {
      type: 'IDP_DISCOVERY',
      name: 'Idp Discovery Policy',
      description: 'The default IdP Discovery Policy',
      system: true,
      priority: 1,
      conditions: null,
      rules: [
        {
          name: 'Default Rule',
          system: true,
          priority: 1,
          conditions: { network: { connection: 'ANYWHERE' } },
          // Real orgs answer providers [{ type: 'OKTA' }]; the description's IdP type enum has no OKTA.
          actions: { idp: { providers: [] } },
        },
      ],
    },
  ];
}

/** Policies of the main types with their rules (see {@link catalogue}). */
export function generatePolicies(ctx: GeneratorContext, p: People, zones: Zones): void {
  const { state, prng } = ctx;
  const [privileged, contractors] =
    p.groupIds.length >= 2 ? prng.sample(p.groupIds, 2) : [p.everyoneGroupId, p.everyoneGroupId];
  for (const spec of catalogue(p, zones, privileged, contractors)) {
    const { created, lastUpdated } = ctx.timestamps();
    const policyId = ctx.id(ID_PREFIX.policy);
    state.policies.set(policyId, {
      data: {
        id: policyId,
        status: 'ACTIVE',
        name: spec.name,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        priority: spec.priority,
        system: spec.system ?? false,
        ...withConditions(spec.conditions),
        created,
        lastUpdated,
        ...(spec.settings === undefined ? {} : { settings: spec.settings }),
        type: spec.type,
      },
    });
    const rules = state.policyRules.of(policyId);
    for (const rule of spec.rules) {
      const times = ctx.timestamps();
      const ruleId = ctx.id(ID_PREFIX.policyRule);
      rules.set(ruleId, {
        data: {
          id: ruleId,
          status: rule.status ?? 'ACTIVE',
          name: rule.name,
          priority: rule.priority,
          created: times.created,
          lastUpdated: times.lastUpdated,
          system: rule.system ?? false,
          ...withConditions(rule.conditions),
          actions: rule.actions,
          type: ruleTypeFor(spec.type),
        },
      });
    }
  }
}
