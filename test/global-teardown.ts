export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __embeddedDatabase?: { stop(): Promise<void> } }).__embeddedDatabase?.stop();
}
