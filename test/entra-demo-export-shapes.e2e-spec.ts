import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedCommandEnv } from './support/command-env.js';
import { scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';

// The demo builds the project, then boots the service on embedded PostgreSQL: minutes.
jest.setTimeout(900_000);

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FILE = scubaGearFile();

/**
 * `npm run demo -- --provider entra_id --fixtures <file>` on ScubaGear exports shaped as other
 * versions and tenants write them (libs/simulators/entra/seed/scubagear-export.ts): the real
 * export reshaped, as a user trying the project on their own tenant would run it.
 */
(FILE ? describe : describe.skip)('the Entra demo on ScubaGear exports of other shapes', () => {
  let dir: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'idp-backup-scuba-'));
    dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-scuba-data-'));
    env = await isolatedCommandEnv(dataDir);
  });

  afterAll(() => {
    for (const path of [dir, dataDir]) rmSync(path, { recursive: true, force: true });
  });

  /** The demo's exit code and output, run through npm as the README documents it. */
  function demo(fixtures: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        'npm',
        ['run', '-s', 'demo', '--', '--provider', 'entra_id', '--fixtures', fixtures, '--json'],
        { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024, timeout: 800_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('backs up and restores a tenant whose export writes one-element lists as objects and has null sections', async () => {
    const exported = JSON.parse(readFileSync(FILE!, 'utf8').replace(/^\uFEFF/, '')) as Record<
      string,
      unknown
    >;
    const [tenant] = exported.tenant_details as Array<Record<string, unknown>>;
    tenant.AADAdditionalData = (tenant.AADAdditionalData as unknown[])[0];
    exported.tenant_details = tenant;
    exported.authorization_policies = (exported.authorization_policies as unknown[])[0];
    exported.domain_settings = null;
    delete exported.risky_third_party_service_principals;
    const variant = join(dir, 'ProviderSettingsExport.json');
    // ScubaGear writes UTF-8 with a byte-order mark.
    writeFileSync(variant, `\uFEFF${JSON.stringify(exported, null, 2)}`);

    const run = await demo(variant);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      status: 'completed',
      exact: true,
      restore: { status: 'completed', restored: true, writes: expect.objectContaining({ failed: 0 }) },
      resource_counts: expect.objectContaining({ conditional_access_policy: 7, authorization_policy: 1 }),
    });
    // The null domain_settings section adds no domain: the one there is the generator's federated
    // corp.example.com (libs/simulators/entra/seed/generate-dependencies.ts), seeded beside the export.
    expect((summary.resource_counts as Record<string, number>).domain ?? 0).toBe(1);
  });

  it('refuses a file that is not such an export with the section and what was expected, exit 2', async () => {
    const notAnExport = join(dir, 'okta-export.json');
    writeFileSync(notAnExport, JSON.stringify({ users: [{ id: '00u1' }] }));
    const run = await demo(notAnExport);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `${notAnExport} is not a ScubaGear ProviderSettingsExport.json with Entra settings: ` +
        'it has no conditional_access_policies section (was ScubaGear run with -ProductNames aad?)',
    );
  });
});
