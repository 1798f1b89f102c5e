import type { ScubaGearDirectoryKeys } from './scubagear-directory.js';

/** A Graph PowerShell object of the export, PascalCase. */
type Exported = Record<string, unknown>;

/** The Entra keys of a ScubaGear ProviderSettingsExport.json, each in one shape (see `parseScubaGearExport`). */
export interface ScubaGearExport extends ScubaGearDirectoryKeys {
  tenant_details: Array<{
    TenantId: string;
    DisplayName: string;
    /** the organization as Graph PowerShell returned it: none, or one object */
    AADAdditionalData: Exported[];
  }>;
  conditional_access_policies: Exported[];
  authorization_policies: Exported[];
  authentication_method: Array<{
    authentication_method_policy: Exported;
    authentication_method_feature_settings: Exported[];
  }>;
  domain_settings: Exported[];
  privileged_users: Record<string, { DisplayName: string; OnPremisesImmutableId: string | null }>;
  /** the subscribed SKUs (`Get-MgSubscribedSku`: SkuId, SkuPartNumber, units) */
  license_information?: Exported[];
  /** the provisioned service plans of every SKU together */
  service_plans?: Exported[];
}

/** A file that is not a ScubaGear export with Entra (aad) settings; the message names the section. */
export class ScubaGearExportError extends Error {
  override readonly name = 'ScubaGearExportError';
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A ScubaGear ProviderSettingsExport.json's text as one shape, whatever ScubaGear version and
 * PowerShell wrote it (cisagov/ScubaGear `Modules/Providers/ExportAADProvider.psm1`, v0.1.0 to
 * v1.8.0 and main; `Modules/Orchestrator.psm1`):
 * - a UTF-8 byte-order mark is dropped (the orchestrator writes one);
 * - a member with a colon and no value (`"privileged_service_principals": ,`, written when a
 *   command failed) is read as an empty list, as ScubaGear's own `Repair-ScubaGearJson` does;
 * - a list section may be a list, one object (PowerShell's `ConvertTo-Json` writes a one-element
 *   array piped to it as the element alone: learn.microsoft.com/powershell/module/
 *   microsoft.powershell.utility/convertto-json, `-AsArray`; v0.x and the rego stubs pipe every
 *   section), `{ "value": [...], "Count": n }` (Windows PowerShell 5.1 serializes an array held in
 *   a property with its extended-type members), `null` or missing (the section's command failed
 *   or that version has no such section): all become a list, empty for the last two;
 * - `tenant_details[].AADAdditionalData` (the organization) is a list or one object; the
 *   string ScubaGear writes when `Get-MgBetaOrganization` failed becomes none;
 * - `authentication_method[0]` is the policy with its `AuthenticationMethodConfigurations`
 *   inside (v1.0 to v1.2), or `authentication_method_policy` beside
 *   `authentication_method_feature_settings` (v1.3 on): both become the second;
 * - `privileged_users` / `privileged_service_principals` are objects keyed by id, or `[]` when the
 *   tenant has no service plans.
 * @param text the file's text
 * @param file the file's name, for messages
 * @throws ScubaGearExportError naming the section and what was expected, when the text is not
 *   JSON, not an export of ScubaGear's aad product (no `tenant_details` with a tenant id, no
 *   `conditional_access_policies`), or a section holds something other than Graph objects
 */
export function parseScubaGearExport(text: string, file: string): ScubaGearExport {
  const top = parseJson(text.replace(/^\uFEFF/, ''), file);
  const fail = (message: string): never => {
    throw new ScubaGearExportError(
      `${file} is not a ScubaGear ProviderSettingsExport.json with Entra settings: ${message}`,
    );
  };
  if (!isObject(top)) return fail(`the file holds ${kind(top)}, not an object of sections`);
  if (!('conditional_access_policies' in top))
    fail('it has no conditional_access_policies section (was ScubaGear run with -ProductNames aad?)');
  const sections = new Sections(top, fail);

  const tenants = sections.list('tenant_details').map((tenant, index) => {
    const where = `tenant_details[${index}]`;
    if (typeof tenant.TenantId !== 'string' || !GUID.test(tenant.TenantId))
      fail(`${where}.TenantId should be the tenant's id (a GUID), found ${kind(tenant.TenantId)}`);
    const organization = tenant.AADAdditionalData;
    return {
      TenantId: tenant.TenantId as string,
      DisplayName: typeof tenant.DisplayName === 'string' ? tenant.DisplayName : '',
      // A string here is ScubaGear's "Error retrieving additional data".
      AADAdditionalData:
        typeof organization === 'string' ? [] : sections.listOf(organization, `${where}.AADAdditionalData`),
    };
  });
  if (tenants.length === 0)
    fail('tenant_details should name the tenant (a list of one object with TenantId), found none');

  return {
    tenant_details: tenants,
    conditional_access_policies: sections.graphObjects('conditional_access_policies'),
    authorization_policies: sections.graphObjects('authorization_policies'),
    authentication_method: sections
      .list('authentication_method')
      .map((methods, index) => authenticationMethods(methods, `authentication_method[${index}]`, sections)),
    domain_settings: sections.graphObjects('domain_settings'),
    privileged_users: sections.byId('privileged_users') as ScubaGearExport['privileged_users'],
    privileged_service_principals: sections.byId(
      'privileged_service_principals',
    ) as ScubaGearExport['privileged_service_principals'],
    directory_settings: sections.graphObjects('directory_settings'),
    privileged_roles: sections.list('privileged_roles').map((role, index) => ({
      ...(role as { DisplayName: string; RoleTemplateId: string }),
      Assignments: sections.listOf(role.Assignments, `privileged_roles[${index}].Assignments`, 'Id'),
    })),
    risky_applications: sections.list('risky_applications', 'ObjectId'),
    risky_third_party_service_principals: sections.list('risky_third_party_service_principals', 'ObjectId'),
    license_information: sections.list('license_information', 'SkuId'),
    service_plans: sections.list('service_plans', 'ServicePlanId'),
  };
}

/** The two shapes of `authentication_method[n]` as the v1.3+ one. */
function authenticationMethods(
  methods: Exported,
  where: string,
  sections: Sections,
): ScubaGearExport['authentication_method'][number] {
  if ('authentication_method_policy' in methods || 'authentication_method_feature_settings' in methods) {
    const policy = methods.authentication_method_policy;
    return {
      authentication_method_policy: isObject(policy) ? policy : {},
      authentication_method_feature_settings: sections.listOf(
        methods.authentication_method_feature_settings,
        `${where}.authentication_method_feature_settings`,
        'Id',
      ),
    };
  }
  const { AuthenticationMethodConfigurations: configurations, ...policy } = methods;
  return {
    authentication_method_policy: policy,
    authentication_method_feature_settings: sections.listOf(
      configurations,
      `${where}.AuthenticationMethodConfigurations`,
      'Id',
    ),
  };
}

/** Reads the export's sections, each as the one shape the seeder takes, or fails naming it. */
class Sections {
  constructor(
    private readonly top: Exported,
    private readonly fail: (message: string) => never,
  ) {}

  /** Section `name` as a list of objects, each with member `key` when given. */
  list(name: string, key?: string): Exported[] {
    return this.listOf(this.top[name], name, key);
  }

  /** Section `name` as a list of Graph objects, each with its `Id`. */
  graphObjects(name: string): Exported[] {
    return this.list(name, 'Id');
  }

  /** `value` (a list, one object, `{ value, Count }`, null or absent) as a list of objects. */
  listOf(value: unknown, where: string, key?: string): Exported[] {
    if (value === null || value === undefined) return [];
    const items = isObject(value)
      ? Array.isArray(value.value) && 'Count' in value
        ? value.value
        : [value]
      : value;
    if (!Array.isArray(items))
      return this.fail(`${where} should be a list of objects or one object, found ${kind(value)}`);
    return items
      .filter((item) => item !== null)
      .map((item, index) => {
        if (!isObject(item))
          this.fail(
            `${where}[${index}] should be an object${key ? ` with ${key}` : ''}, found ${kind(item)}`,
          );
        if (key && (item as Exported)[key] == null)
          this.fail(`${where}[${index}] should be an object with ${key}, found one without it`);
        return item as Exported;
      });
  }

  /** Section `name`: objects keyed by directory object id (an empty list is none). */
  byId(name: string): Record<string, Exported> {
    const value = this.top[name];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return {};
    if (!isObject(value))
      return this.fail(`${name} should be an object keyed by directory object id, found ${kind(value)}`);
    for (const [id, entry] of Object.entries(value))
      if (!isObject(entry)) this.fail(`${name}["${id}"] should be an object, found ${kind(entry)}`);
    return value as Record<string, Exported>;
  }
}

/** The text as JSON, after ScubaGear's own repair of a member with no value when it needs one. */
function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Repair-ScubaGearJson (Orchestrator.psm1): `"name": ,` or `"name": }` -> `"name": []`.
    const repaired = text.replace(/("[^"]+"\s*:\s*)(?=,|\})/g, '$1[]');
    try {
      return JSON.parse(repaired);
    } catch {
      throw new ScubaGearExportError(
        `${file} is not a ScubaGear ProviderSettingsExport.json: it is not JSON (${(error as Error).message})`,
      );
    }
  }
}

function isObject(value: unknown): value is Exported {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a value is, for a message: `a list`, `an object`, `null`, `a string ("...")`, `a number`. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string')
    return `a string ("${value.length > 40 ? `${value.slice(0, 40)}…` : value}")`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
