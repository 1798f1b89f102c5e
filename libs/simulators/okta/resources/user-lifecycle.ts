import { OktaError, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';

/** User lifecycle operations, as named in `/api/v1/users/{id}/lifecycle/{operation}`. */
export type UserOperation =
  | 'activate'
  | 'reactivate'
  | 'deactivate'
  | 'suspend'
  | 'unsuspend'
  | 'unlock'
  | 'expire_password'
  | 'reset_password';

interface Transition {
  from: readonly string[];
  to: (user: Json) => string;
}

const ALL_BUT_DEPROVISIONED = [
  'STAGED',
  'PROVISIONED',
  'ACTIVE',
  'RECOVERY',
  'PASSWORD_EXPIRED',
  'LOCKED_OUT',
  'SUSPENDED',
];

/** A user with a password becomes ACTIVE on activation; one without waits in PROVISIONED. */
function activated(user: Json): string {
  const credentials = user.credentials as { password?: unknown } | undefined;
  return credentials?.password === undefined ? 'PROVISIONED' : 'ACTIVE';
}

/**
 * Allowed source statuses and the resulting status of each operation, from the OpenAPI
 * descriptions of `/api/v1/users/{id}/lifecycle/*` (e.g. "Perform this operation only on users
 * with a STAGED or DEPROVISIONED status").
 */
export const USER_TRANSITIONS: Record<UserOperation, Transition> = {
  activate: { from: ['STAGED', 'DEPROVISIONED'], to: activated },
  reactivate: { from: ['PROVISIONED', 'RECOVERY'], to: () => 'PROVISIONED' },
  deactivate: { from: ALL_BUT_DEPROVISIONED, to: () => 'DEPROVISIONED' },
  suspend: { from: ['ACTIVE'], to: () => 'SUSPENDED' },
  unsuspend: { from: ['SUSPENDED'], to: () => 'ACTIVE' },
  unlock: { from: ['LOCKED_OUT', 'ACTIVE'], to: () => 'ACTIVE' },
  expire_password: {
    from: ['ACTIVE', 'PASSWORD_EXPIRED', 'RECOVERY', 'LOCKED_OUT'],
    to: () => 'PASSWORD_EXPIRED',
  },
  reset_password: {
    from: ['ACTIVE', 'PASSWORD_EXPIRED', 'RECOVERY', 'LOCKED_OUT', 'PROVISIONED'],
    to: () => 'RECOVERY',
  },
};

/**
 * The user after `operation` at time `now` (ISO), or Okta's refusal: activating an ACTIVE
 * user is 403 E0000016 (Okta error codes); any other operation from a status it does not
 * apply to is 400 E0000001 ("suspending a user who is not active will result in the
 * E0000001 error code", Okta error code list).
 */
export function applyUserOperation(user: Json, operation: UserOperation, now: string): Json {
  const transition = USER_TRANSITIONS[operation];
  const status = String(user.status);
  if (!transition.from.includes(status)) {
    if (operation === 'activate' && status === 'ACTIVE')
      throw new OktaError(403, 'E0000016', 'Activation failed because the user is already active');
    throw validationFailed(operation, `Cannot ${operation.replace('_', ' ')} a user with status ${status}`);
  }
  const next = transition.to(user);
  const becameActive =
    (next === 'ACTIVE' || next === 'PROVISIONED') && (status === 'STAGED' || status === 'DEPROVISIONED');
  return {
    ...user,
    status: next,
    ...(becameActive ? { activated: now } : {}),
    statusChanged: now,
    lastUpdated: now,
  };
}
