import type { ChangeFacts } from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';

import type { FlowCard } from './flow-cards.js';

/**
 * Okta connector actions that take access away from users (deprovisioning) or hand out admin
 * rights, by the last segment of the card address (Okta Workflows "Okta connector actions":
 * Deactivate, Suspend, Delete, Clear User Sessions; Assign/Unassign Admin Role).
 */
const DEPROVISIONING =
  /^(deactivateUser|suspendUser|deleteUser|clearUserSessions|unassignUserFromApplication|removeUserFromGroup)$/;
const ADMIN_ROLES = /^(assignAdminRoleToUser|assignAdminRoleToGroup|grantAdminRole)$/;

function cardsOf(data: Record<string, unknown> | undefined): FlowCard[] {
  const cards = data?.cards;
  return cards && typeof cards === 'object' ? Object.values(cards as Record<string, FlowCard>) : [];
}

/** The flow, before or after, holds a card that deprovisions users or grants admin roles. */
export function touchesPrivilegedCard(facts: ChangeFacts): boolean {
  if (facts.resourceType !== 'workflow') return false;
  return [...cardsOf(facts.before), ...cardsOf(facts.after)].some((card) => {
    const action = card.address.split(':').pop() ?? '';
    return DEPROVISIONING.test(action) || ADMIN_ROLES.test(action);
  });
}

const is =
  (type: string, ...actions: ChangeFacts['action'][]) =>
  (facts: ChangeFacts): boolean =>
    facts.resourceType === type && (actions.length === 0 || actions.includes(facts.action));

/**
 * Okta Workflows' severity table (docs/severity.md "Okta Workflows"), most specific first. A flow
 * runs with its connections' rights (an Okta connection acts as a super admin), so a change to one
 * that deprovisions users or grants admin roles is high whatever the change.
 */
export const WORKFLOWS_SEVERITY_RULES: readonly SeverityRule[] = [
  {
    id: 'workflows-privileged-flow-changed',
    severity: 'high',
    description:
      'A flow that deprovisions users (deactivate, suspend, delete, clear sessions, remove from a group or app) or grants admin roles was added, changed or removed.',
    applies: touchesPrivilegedCard,
  },
  {
    id: 'workflows-flow-removed',
    severity: 'medium',
    description: 'A flow was removed (Okta support cannot restore it: only a re-import brings it back).',
    applies: is('workflow', 'removed'),
  },
  {
    id: 'workflows-connection-changed',
    severity: 'medium',
    description: 'A connection placeholder was added or removed, or the flows using it changed.',
    applies: is('workflow_connection'),
  },
  {
    id: 'workflows-flow-changed',
    severity: 'low',
    description: 'Any other flow was added or changed (its cards, inputs, schedule).',
    applies: is('workflow'),
  },
  {
    id: 'workflows-other-change',
    severity: 'info',
    description: 'A folder or a table (schema or rows) changed.',
    // Workflows types only: in an Okta snapshot with `includeWorkflows`, Okta's own table rates the rest.
    applies: (facts) => facts.resourceType.startsWith('workflow_'),
  },
];
