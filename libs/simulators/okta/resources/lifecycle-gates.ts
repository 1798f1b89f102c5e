import { OktaError } from '@libs/simulators/okta/http/okta-error.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';

/**
 * Refuses to delete an ACTIVE object, for APIs that only delete INACTIVE ones ("As a safety
 * precaution, you can only delete event hooks with a status of `INACTIVE`", deleteEventHook;
 * likewise inline hooks and client secrets): 403 E0000006 naming the fix, or undefined.
 */
export function refuseActiveDelete(kind: string, status = 403): (current: Json) => OktaError | undefined {
  return (current) =>
    current.status === 'ACTIVE'
      ? new OktaError(status, status === 403 ? 'E0000006' : 'E0000001', `Cannot delete an ACTIVE ${kind}`, [
          `Deactivate the ${kind} before deleting it.`,
        ])
      : undefined;
}
