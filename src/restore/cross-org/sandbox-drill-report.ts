/** One type of a sandbox drill: the backup compared with the sandbox after the restore, modulo the mapping. */
export interface SandboxDrillType {
  resourceType: string;
  /** in the backup, still not in the sandbox */
  missing: number;
  /** in both, still different */
  different: number;
  /** in both, the same (or left alone: the provider's own, protected) */
  same: number;
  /** in the sandbox only (its own objects, left alone) */
  sandboxOnly: number;
}

/** A write the sandbox refused during the drill's restore. */
export interface SandboxDrillFailure {
  resourceType: string;
  resourceId: string;
  error: string;
}

/**
 * What a sandbox drill found (docs/restore.md "Into another org"): the restore into the sandbox,
 * the sandbox's backup after it, and the diff of the backup with the sandbox modulo the mapping,
 * type by type. It passed when no write was refused and nothing the API can write still differs.
 */
export interface SandboxDrillReport {
  targetConnectionId: string;
  /** the sandbox's backup taken after the restore: the evidence */
  sandboxBackupId: string | null;
  passed: boolean;
  /** what the restore did, over every type */
  restored: { create: number; update: number; skip: number; failed: number };
  /** writes the sandbox refused, at most 50 */
  failures: SandboxDrillFailure[];
  types: SandboxDrillType[];
  /** types the provider's API cannot write (signing keys, secrets): never counted as differences */
  notWritable: string[];
}
