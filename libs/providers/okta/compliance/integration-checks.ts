import type { Check } from '@libs/compliance/compliance-types.js';
import { judgeEach, notInBackup } from './okta-outcomes.js';
import { objectAt } from './policy-book.js';
import { settingsCheck } from './settings-check.js';

/** A zone with something to block: addresses, locations or ASNs (the system BlockedIpZone starts empty). */
function blocksSomething(data: Record<string, unknown>): boolean {
  return ['gateways', 'locations', 'asns'].some(
    (field) => Array.isArray(data[field]) && (data[field] as unknown[]).length > 0,
  );
}

const blocklistZone = settingsCheck({
  key: 'network.blocklist_zone',
  id: 'okta.network.blocklist_zone',
  title: 'A blocklist network zone is active',
  remediation: 'Add addresses, countries or ASNs to an active blocklist zone (Security > Networks).',
  reads: ['network_zone'],
  evaluate(records) {
    const blocklists = records.of('network_zone').filter((z) => z.data.usage === 'BLOCKLIST');
    const judged = blocklists.map((zone) => {
      const ok = zone.data.status === 'ACTIVE' && blocksSomething(zone.data);
      return {
        record: zone,
        observed: { status: zone.data.status, blocksSomething: blocksSomething(zone.data) },
        ok,
      };
    });
    const outcome = judgeEach(
      'network_zone',
      ['/usage', '/status', '/gateways', '/locations', '/asns'],
      { activeNonEmptyBlocklist: true },
      judged,
      'The backup holds no blocklist zone.',
    );
    // One working blocklist is enough; empty or inactive ones beside it do no harm.
    const working = judged.filter((j) => j.ok);
    if (working.length > 0)
      return {
        ...outcome,
        status: 'pass',
        resources: working
          .slice(0, 20)
          .map((j) => ({ id: j.record.id, name: j.record.name, observed: j.observed })),
        total: working.length,
      };
    return judged.length === 0 ? { ...outcome, status: 'fail' } : outcome;
  },
});

const zonePolicies = settingsCheck({
  key: 'network.zone_policies',
  id: 'okta.network.zone_policies',
  title: 'Sign-in policies take the network into account',
  remediation:
    'Use network zones in global session or app sign-in policy rules (deny blocklists, step up off the corporate network).',
  reads: ['policy', 'policy_rule'],
  evaluate(records) {
    const rules = [...records.book.activeRules('OKTA_SIGN_ON'), ...records.book.activeRules('ACCESS_POLICY')];
    const zoned = rules.filter(
      ({ rule }) => objectAt(rule.data, 'conditions', 'network').connection === 'ZONE',
    );
    const judged =
      zoned.length > 0
        ? zoned.map(({ rule }) => ({
            record: rule,
            observed: objectAt(rule.data, 'conditions', 'network'),
            ok: true,
          }))
        : [
            {
              record: { id: 'policy_rule', name: `${rules.length} active sign-in rules` },
              observed: { zoneRules: 0 },
              ok: false,
            },
          ];
    return judgeEach('policy_rule', ['/conditions/network/connection'], { zoneRules: '>= 1' }, judged, '');
  },
});

/** Origins no production org should trust: plain HTTP, local hosts, wildcards. */
const UNSAFE_ORIGIN = /^http:\/\/|^https?:\/\/(localhost|127\.|\[::1\])|\*/i;

const trustedOrigins = settingsCheck({
  key: 'network.trusted_origins',
  id: 'okta.network.trusted_origins',
  title: 'Trusted origins are HTTPS and not local',
  remediation:
    'Remove or deactivate trusted origins on plain HTTP, localhost or wildcards (Security > API > Trusted Origins).',
  reads: ['trusted_origin'],
  evaluate(records) {
    const judged = records
      .of('trusted_origin')
      .filter((o) => o.data.status === 'ACTIVE')
      .map((o) => ({
        record: o,
        observed: { origin: o.data.origin },
        ok: !UNSAFE_ORIGIN.test(String(o.data.origin)),
      }));
    return judgeEach(
      'trusted_origin',
      ['/origin', '/status'],
      { https: true, local: false },
      judged,
      'The backup holds no active trusted origin.',
    );
  },
});

const eventHooksVerified = settingsCheck({
  key: 'hooks.event_hooks_verified',
  id: 'okta.hooks.event_hooks_verified',
  title: 'Active event hooks are verified',
  remediation: 'Verify each active event hook (Workflow > Event Hooks > Verify) or deactivate it.',
  reads: ['event_hook'],
  evaluate(records) {
    const judged = records
      .of('event_hook')
      .filter((h) => h.data.status === 'ACTIVE')
      .map((h) => ({
        record: h,
        observed: { verificationStatus: h.data.verificationStatus ?? null },
        ok: h.data.verificationStatus === 'VERIFIED',
      }));
    return judgeEach(
      'event_hook',
      ['/status', '/verificationStatus'],
      { verificationStatus: 'VERIFIED' },
      judged,
      'The backup holds no active event hook.',
    );
  },
});

const apiServiceScopes = settingsCheck({
  key: 'integrations.api_service_scopes',
  id: 'okta.integrations.api_service_scopes',
  title: 'Service integrations hold only the okta.* scopes they need',
  remediation:
    "Review each service app's granted okta.* scopes (Okta API Scopes tab) and revoke manage scopes it does not need.",
  reads: ['app'],
  evaluate(records) {
    const services = records
      .of('app')
      .filter(
        (a) =>
          a.data.status === 'ACTIVE' &&
          objectAt(a.data, 'settings', 'oauthClient').application_type === 'service',
      );
    return notInBackup(
      'app',
      `Okta's scope grants (/api/v1/apps/{appId}/grants) and API service integrations are not in the backup; ${services.length} active service app(s) to review.`,
      services.slice(0, 20).map((a) => ({
        id: a.id,
        name: a.name,
        observed: {
          grant_types:
            objectAt(a.data, 'settings', 'oauthClient').grant_types ??
            objectAt(a.data, 'settings', 'oauthClient'),
        },
      })),
    );
  },
});

/** Settings Okta keeps outside the APIs a backup reads: judged by a person. */
const threatInsight: Check = {
  key: 'network.threat_insight',
  id: 'okta.network.threat_insight',
  title: 'ThreatInsight blocks suspicious sign-in attempts',
  remediation: 'Set ThreatInsight to "Log and enforce security based on threat level" (Security > General).',
  reads: [],
  start: () => ({
    finish: () =>
      notInBackup(
        'threat_insight',
        'ThreatInsight settings (/api/v1/threats/configuration) are not part of the backup.',
      ),
  }),
};

const logStreaming: Check = {
  key: 'logging.log_streaming',
  id: 'okta.logging.log_streaming',
  title: 'The System Log is streamed out of Okta',
  remediation:
    'Add a log stream (Reports > Log Streaming) or a SIEM pull of /api/v1/logs: Okta keeps 90 days.',
  reads: [],
  start: () => ({
    finish: () => notInBackup('log_stream', 'Log streams (/api/v1/logStreams) are not part of the backup.'),
  }),
};

/** Network, hook and integration checks. */
export const INTEGRATION_CHECKS: readonly Check[] = [
  blocklistZone,
  zonePolicies,
  trustedOrigins,
  eventHooksVerified,
  apiServiceScopes,
  threatInsight,
  logStreaming,
];
