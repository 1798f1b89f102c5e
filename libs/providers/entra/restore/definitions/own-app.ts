import type { OwnApp } from '@libs/providers/entra/restore/entra-restore-definition.js';

const OWN_SERVICE_PRINCIPAL =
  "Held by the connection's own service principal: a restore never changes or removes what the app itself is granted, so it cannot lock itself out";

/**
 * Why a restore must not write a grant held by `principalId` (an app role assignment, a role
 * assignment): the connection's own service principal holds it, or null. Its id is learnt by the
 * restorer's `prepare` (OwnApp `servicePrincipalId`); unknown, nothing is protected by it.
 */
export function ownServicePrincipalBecause(principalId: unknown, own: OwnApp): string | null {
  return own.servicePrincipalId !== undefined && principalId === own.servicePrincipalId
    ? OWN_SERVICE_PRINCIPAL
    : null;
}
