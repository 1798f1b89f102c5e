/**
 * Threshold values taken from framework texts, named once so that frameworks without numbers of
 * their own (SOC 2, HIPAA, ISO/IEC 27001) can say which recommended value they use. Sources in
 * docs/compliance.md "Thresholds".
 */
export const THRESHOLDS = {
  /** NIST SP 800-63B-4: 15 characters when the password is the only factor, 8 within MFA. */
  nistPasswordLength: { minLength: 15, minLengthWithMfa: 8 },
  /** PCI DSS v4.0.1 8.3.4: lock after at most 10 attempts, for at least 30 minutes. */
  pciLockout: { maxAttempts: 10, minLockoutMinutes: 30 },
  /** PCI DSS v4.0.1 8.2.6, FedRAMP Moderate AC-2(3) `ac-02.03_odp.02`: 90 days. */
  inactiveDays90: { maxInactiveDays: 90 },
  /** FedRAMP Moderate AC-11 `ac-11_odp.02`, PCI DSS 8.2.8: 15 minutes idle. */
  idle15: { maxIdleMinutes: 15 },
  /** NIST SP 800-63B (rev. 3, AAL2/AAL3): reauthenticate at least every 12 hours. */
  lifetime12h: { maxLifetimeMinutes: 720 },
  /** Break-glass needs 2 (ScubaGear MS.AAD.7.1 lower bound); "a handful": at most 5 (okta-inspector). */
  superAdmins: { min: 2, max: 5 },
  /** HIPAA Security Rule NPRM (90 FR 898, 2025): backups no older than 48 hours. */
  backup48h: { maxIntervalHours: 48 },
  /** CIS Controls v8 11.2: backups weekly or more often. */
  backupWeekly: { maxIntervalHours: 168 },
  /** CIS Controls v8 11.5: test recovery quarterly. */
  restoreQuarterly: { maxDays: 90 },
  /** Our recommended ceiling on direct (not group) app assignments (docs/compliance.md). */
  directAssignments: { maxDirectShare: 0.25 },
} as const;
