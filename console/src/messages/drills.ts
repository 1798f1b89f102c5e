/** The restore drills screens' text (docs/backups.md "Verification drills"). */
export const drillsMessages = {
  title: 'Restore drills',
  intro:
    'A drill reads a backup end to end the way a restore would, writing nowhere: every part and index decrypted, every record parsed and checked against the manifest.',
  run: {
    heading: 'Verify a backup',
    backup: 'Backup to verify',
    backupPlaceholder: 'Choose a completed backup',
    noBackup: 'No completed backup yet',
    button: 'Run drill',
  },
  weekly: {
    heading: 'Weekly verification',
    intro:
      'Each Monday at 02:29 UTC a drill reads the latest completed backup of each connection that asks for it.',
    connection: 'Connection',
    connectionPlaceholder: 'Choose a connection',
    toggle: 'Verify the latest backup every week',
    saved: (on: boolean, name: string) =>
      on ? `Weekly verification on for ${name}` : `Weekly verification off for ${name}`,
  },
  detail: {
    title: (name: string) => `Restore drill of ${name}`,
    progress: 'Drill progress',
    summary: (trigger: string) => (trigger === 'schedule' ? 'weekly, started' : 'run by hand, started'),
    outcome: 'Outcome',
    passed: 'passed',
    failed: 'failed',
    running: 'running',
    backup: 'Backup',
    openBackup: 'open the backup',
    backupDeleted: 'deleted since',
    manifest: 'Manifest SHA-256',
    parts: 'Parts read',
    records: 'Records checked',
    bytes: 'Bytes read',
    duration: 'Duration',
    result: 'What was read',
    loading: 'Loading…',
  },
} as const;
