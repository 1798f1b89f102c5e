import type { Route } from '@libs/simulators/kit/http/router.js';

import { GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { entityReply, listPage } from './odata-list.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/**
 * "List subscribedSkus" (`GET /subscribedSkus`, `GET /subscribedSkus/{id}`): application
 * permissions LicenseAssignment.Read.All, Organization.Read.All, Directory.Read.All and their
 * ReadWrite forms.
 */
const SKU_READERS = [
  'LicenseAssignment.Read.All',
  'Organization.Read.All',
  'Directory.Read.All',
  'LicenseAssignment.ReadWrite.All',
  'Organization.ReadWrite.All',
  'Directory.ReadWrite.All',
];

/** A SKU counts while its subscription is active or in its grace period ("subscribedSku": capabilityStatus). */
const ACTIVE_SKU = new Set(['Enabled', 'Warning']);

/**
 * A licence a conditional access condition needs, and how Graph refuses a policy that uses the
 * condition in a tenant without it. Microsoft Entra "Conditional Access: Conditions": user risk,
 * sign-in risk and insider risk need Microsoft Entra ID P2 (service plan `AAD_PREMIUM_P2`);
 * "Conditional Access for workload identities": policies scoped to service principals and
 * service principal risk need Workload Identities Premium (`AAD_WRKLDID_P1`/`AAD_WRKLDID_P2`).
 * Graph's answers, 400 `BadRequest` with the numbered message, as reported from real tenants:
 * code 1039 (https://github.com/crossplane-contrib/provider-upjet-azuread/issues/5: "1039: Cannot create
 * or update policies with premium P2 features. Upgrade to a premium P2 license and try again.")
 * and 1150 (https://github.com/MicrosoftDocs/azure-docs/issues/101310: "1150: Cannot create or update
 * policies with workload identity premium features. Upgrade to a workload identity premium P1 or
 * P2 license and try again"). Graph's reference pages document neither message.
 */
export interface ConditionLicence {
  /** the licence's name, as the admin centre names it */
  licence: string;
  /** service plans that grant it (any of) */
  servicePlans: readonly string[];
  /** Graph's refusal */
  message: string;
  /** the conditions of `conditions` that need the licence (their names), none when it needs none */
  uses(conditions: GraphObject): string[];
}

const filled = (value: unknown) =>
  Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined;

/** The licences conditional access conditions need (ConditionLicence). */
export const CONDITION_LICENCES: readonly ConditionLicence[] = [
  {
    licence: 'Microsoft Entra ID P2',
    servicePlans: ['AAD_PREMIUM_P2'],
    message:
      '1039: Cannot create or update policies with premium P2 features. Upgrade to a premium P2 license and try again.',
    uses: (conditions) =>
      ['userRiskLevels', 'signInRiskLevels', 'insiderRiskLevels'].filter((name) => filled(conditions[name])),
  },
  {
    licence: 'Microsoft Entra Workload ID Premium',
    servicePlans: ['AAD_WRKLDID_P1', 'AAD_WRKLDID_P2'],
    message:
      '1150: Cannot create or update policies with workload identity premium features. Upgrade to a workload identity premium P1 or P2 license and try again.',
    uses: (conditions) => {
      const apps = (conditions.clientApplications ?? {}) as GraphObject;
      const scoped = ['includeServicePrincipals', 'excludeServicePrincipals', 'servicePrincipalFilter'].some(
        (name) => filled(apps[name]),
      );
      return [
        ...(scoped ? ['clientApplications'] : []),
        ...(filled(conditions.servicePrincipalRiskLevels) ? ['servicePrincipalRiskLevels'] : []),
      ];
    },
  },
];

/** The service plans of the tenant's active subscriptions (`subscribedSkus`), by name. */
export function activeServicePlans(state: TenantState): Set<string> {
  const plans = new Set<string>();
  for (const sku of state.collection('subscribedSkus').values()) {
    if (!ACTIVE_SKU.has(String(sku.capabilityStatus ?? 'Enabled'))) continue;
    for (const plan of (sku.servicePlans ?? []) as GraphObject[])
      if (plan.provisioningStatus === undefined || plan.provisioningStatus === 'Success')
        plans.add(String(plan.servicePlanName));
  }
  return plans;
}

/**
 * The policy as written, after checking the tenant holds the licences its conditions need.
 * @throws GraphError 400 `BadRequest` with Graph's numbered message for the first one missing
 */
export function requireConditionLicences(policy: GraphObject, state: TenantState): GraphObject {
  const conditions = (policy.conditions ?? {}) as GraphObject;
  const plans = activeServicePlans(state);
  for (const gate of CONDITION_LICENCES)
    if (gate.uses(conditions).length > 0 && !gate.servicePlans.some((plan) => plans.has(plan)))
      throw new GraphError(400, 'BadRequest', gate.message);
  return policy;
}

/**
 * A stored SKU as Graph answers it ("subscribedSku resource type"): `id` is
 * `<tenant id>_<skuId>`, `skuId` the SKU's GUID (the simulator keys SKUs by `skuId`, as
 * `assignLicense` names them), an active subscription unless it says otherwise.
 */
function served(tenantId: string, sku: GraphObject): GraphObject {
  return {
    accountId: tenantId,
    appliesTo: 'User',
    capabilityStatus: 'Enabled',
    consumedUnits: 0,
    prepaidUnits: { enabled: 0, suspended: 0, warning: 0, lockedOut: 0 },
    subscriptionIds: [],
    ...sku,
    servicePlans: ((sku.servicePlans ?? []) as GraphObject[]).map((plan) => ({
      provisioningStatus: 'Success',
      ...plan,
    })),
    skuId: sku.id,
    id: `${tenantId}_${sku.id}`,
  };
}

/** `GET /v1.0/subscribedSkus` and `GET /v1.0/subscribedSkus/{id}` ("List subscribedSkus", "Get subscribedSku"). */
export function subscribedSkuRoutes(graph: GraphContext): Route[] {
  const skus = () =>
    [...graph.state.collection('subscribedSkus').values()].map((sku) => served(graph.state.tenantId, sku));
  return [
    graphRoute(graph, 'GET', '/v1.0/subscribedSkus', SKU_READERS, ({ url }) =>
      listPage(url, graph.baseUrl, 'subscribedSkus', skus()),
    ),
    graphRoute(graph, 'GET', '/v1.0/subscribedSkus/{id}', SKU_READERS, ({ url, params }) => {
      const sku = skus().find((candidate) => candidate.id === params.id);
      if (!sku) throw notFound(params.id);
      return entityReply(url, graph.baseUrl, 'subscribedSkus/$entity', sku);
    }),
  ];
}

/**
 * Replaces the tenant's subscriptions with `skus` (each keyed by its `skuId` as `id`, with
 * `skuPartNumber` and `servicePlans` of `servicePlanId`, `servicePlanName`): a tenant that lacks
 * a licence the seed gave it. Users keep only their licences of SKUs still subscribed.
 */
export function replaceSubscribedSkus(state: TenantState, skus: readonly GraphObject[]): void {
  const collection = state.collection('subscribedSkus');
  collection.clear();
  for (const sku of skus) state.put('subscribedSkus', sku);
  for (const user of state.collection('users').values()) {
    const licences = user.assignedLicenses as Array<{ skuId: string }> | undefined;
    if (licences?.some(({ skuId }) => !collection.has(skuId)))
      state.put('users', {
        ...user,
        assignedLicenses: licences.filter(({ skuId }) => collection.has(skuId)),
      });
  }
}

/**
 * The real tenant's subscriptions from a ScubaGear export: `license_information` lists the SKUs
 * (`Get-MgSubscribedSku`: SkuId, SkuPartNumber, ConsumedUnits, PrepaidUnits) and `service_plans`
 * the tenant's provisioned plans of all of them together (ScubaGear's ExportAADProvider flattens
 * them). A plan named as a SKU's part number is that SKU's; every other plan is given to the SKU
 * with the most enabled units (the tenant's main subscription), which is as far as the export tells.
 */
export function scubaGearSkus(
  licences: readonly Record<string, unknown>[],
  servicePlans: readonly Record<string, unknown>[],
): GraphObject[] {
  const units = (sku: Record<string, unknown>) =>
    Number((sku.PrepaidUnits as { Enabled?: unknown } | undefined)?.Enabled ?? 0);
  const main = [...licences].sort((a, b) => units(b) - units(a))[0];
  return licences.map((sku) => ({
    id: String(sku.SkuId),
    skuPartNumber: String(sku.SkuPartNumber),
    consumedUnits: Number(sku.ConsumedUnits ?? 0),
    prepaidUnits: { enabled: units(sku), suspended: 0, warning: 0, lockedOut: 0 },
    servicePlans: servicePlans
      .filter((plan) =>
        licences.some((other) => other.SkuPartNumber === plan.ServicePlanName)
          ? plan.ServicePlanName === sku.SkuPartNumber
          : sku === main,
      )
      .map((plan) => ({
        servicePlanId: String(plan.ServicePlanId),
        servicePlanName: String(plan.ServicePlanName),
        provisioningStatus: String(plan.ProvisioningStatus ?? 'Success'),
        appliesTo: String(plan.AppliesTo ?? 'User'),
      })),
  }));
}
