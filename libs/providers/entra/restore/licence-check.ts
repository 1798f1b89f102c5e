import type { ResourceRecord } from '@libs/records/resource-record.js';
import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';

/** A SKU counts while its subscription is active or in its grace period ("subscribedSku": capabilityStatus). */
const ACTIVE_SKU = new Set(['Enabled', 'Warning']);

/**
 * A licence some conditional access conditions need (Microsoft Entra "Conditional Access:
 * Conditions", "Conditional Access for workload identities"): user, sign-in and insider risk need
 * Microsoft Entra ID P2; policies scoped to service principals, and service principal risk, need
 * Workload ID Premium. Graph refuses a policy using them in a tenant without the licence
 * (400 `BadRequest` "1039: Cannot create or update policies with premium P2 features", "1150:
 * ... workload identity premium features"), so a restore into such a tenant leaves it out.
 */
interface GatedConditions {
  licence: string;
  /** service plans of `subscribedSkus` that grant it (any of) */
  servicePlans: readonly string[];
  /** the conditions it gates, named as the restore names them */
  conditions: string;
  /** whether the policy's `conditions` use any of them */
  used(conditions: GraphObject): boolean;
}

const set = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value != null);

const GATES: readonly GatedConditions[] = [
  {
    licence: 'Microsoft Entra ID P2',
    servicePlans: ['AAD_PREMIUM_P2'],
    conditions: 'user risk, sign-in risk or insider risk',
    used: (conditions) =>
      set(conditions.userRiskLevels) || set(conditions.signInRiskLevels) || set(conditions.insiderRiskLevels),
  },
  {
    licence: 'Microsoft Entra Workload ID Premium',
    servicePlans: ['AAD_WRKLDID_P1', 'AAD_WRKLDID_P2'],
    conditions: 'service principals (clientApplications) or service principal risk',
    used: (conditions) => {
      const apps = (conditions.clientApplications ?? {}) as GraphObject;
      return (
        set(conditions.servicePrincipalRiskLevels) ||
        set(apps.includeServicePrincipals) ||
        set(apps.excludeServicePrincipals) ||
        set(apps.servicePrincipalFilter)
      );
    },
  },
];

/**
 * The tenant's licences as conditional access writes need them: read from "List subscribedSkus"
 * (`GET /v1.0/subscribedSkus`: Organization.Read.All, which every backup holds, or
 * LicenseAssignment.Read.All / Directory.Read.All), the service plans of active SKUs that are
 * provisioned (`provisioningStatus` `Success`).
 */
export class LicenceCheck {
  /** the tenant's service plans; null until read, or when they cannot be read (nothing is checked) */
  private plans: Set<string> | null = null;
  /** the SKUs the tenant subscribes to (`skuId`), read with the plans */
  private skus: Set<string> | null = null;

  /**
   * Reads the tenant's subscribed SKUs. Without a permission to read them, nothing is checked.
   * @throws as GraphApiClient.pages, but ProviderAuthError
   */
  async load(graph: GraphApiClient, signal?: AbortSignal): Promise<void> {
    if (this.plans !== null) return;
    const plans = new Set<string>();
    const skus = new Set<string>();
    try {
      for await (const page of graph.pages({ template: '/v1.0/subscribedSkus', signal }))
        for (const sku of page) {
          skus.add(String(sku.skuId));
          if (!ACTIVE_SKU.has(String(sku.capabilityStatus))) continue;
          for (const plan of (sku.servicePlans ?? []) as GraphObject[])
            if (plan.provisioningStatus === 'Success') plans.add(String(plan.servicePlanName));
        }
    } catch (error) {
      if (error instanceof ProviderAuthError) return;
      throw error;
    }
    this.plans = plans;
    this.skus = skus;
  }

  /**
   * Whether the tenant subscribes to the SKU (`skuId`): "assignLicense" refuses any other ("License
   * ... does not correspond to a valid company License"). Null before `load` or when unknown.
   */
  subscribes(skuId: string): boolean | null {
    return this.skus === null ? null : this.skus.has(skuId);
  }

  /**
   * A `user_license` record with only the licences of SKUs the tenant subscribes to (or may: all
   * of them before `load`): what "assignLicense" can give it in this tenant.
   */
  subscribedOnly(record: ResourceRecord): ResourceRecord {
    const assigned = record.data.assignedLicenses;
    if (this.skus === null || !Array.isArray(assigned)) return record;
    const kept = (assigned as GraphObject[]).filter((licence) => this.subscribes(String(licence.skuId)));
    return kept.length === assigned.length
      ? record
      : { ...record, data: { ...record.data, assignedLicenses: kept } };
  }

  /**
   * Why the tenant cannot take a conditional access policy record (a licence its conditions need
   * that the tenant lacks, by name), or null: for other records, before `load`, or when it can.
   */
  missing(record: ResourceRecord): string | null {
    if (record.type !== 'conditional_access_policy' || this.plans === null) return null;
    const conditions = (record.data.conditions ?? {}) as GraphObject;
    const lacking = GATES.filter(
      (gate) => gate.used(conditions) && !gate.servicePlans.some((plan) => this.plans!.has(plan)),
    );
    if (lacking.length === 0) return null;
    return `Not restorable into this tenant: it has no ${lacking
      .map(
        (gate) =>
          `${gate.licence} licence (service plan ${gate.servicePlans.join(' or ')}), which conditions on ${gate.conditions} need`,
      )
      .join(
        '; nor ',
      )}. Graph refuses such a policy (400 BadRequest 1039 or 1150): add the licence, then restore it again`;
  }
}
