import type { ResourceRecord } from '@libs/records/resource-record.js';

/** One file of a restore package (a ZIP the service stores and hands out by a signed URL). */
export interface PackageFile {
  /** path inside the package, e.g. `tables/Audit trail.csv` */
  path: string;
  content: string;
}

/**
 * What a restore hands back for a provider that cannot be written through an API (Okta
 * Workflows: import is only through its console): the files to import and a runbook of what the
 * admin does by hand, and the records put in it by type.
 */
export interface RestorePackage {
  files: PackageFile[];
  /** records the package holds, by type */
  counts: Record<string, number>;
  /** what comes back differently or must be done by hand, for the preview and the restore record */
  notes: string[];
}

/** What a package is made of: the backup's records, and the types and ids the restore asked for. */
export interface RestorePackageInput {
  /** every record of the backup, by type */
  records: Readonly<Record<string, readonly ResourceRecord[]>>;
  /** the types asked for, and, when narrowed, the record ids (as a restore's selection) */
  selection: { types: ReadonlySet<string>; ids?: ReadonlySet<string> };
  backup: { id: string; orgUrl: string; startedAt: string };
  /** when the package is made (ISO 8601) */
  now: string;
}
