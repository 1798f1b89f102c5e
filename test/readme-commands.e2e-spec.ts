import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAVE_FIXTURES } from './support/okta-org.js';
import { isolatedCommandEnv } from './support/command-env.js';

// Each command builds the project first, then runs a demo or a service: minutes, not a speed target.
jest.setTimeout(600_000);

/** The checkout, where a user types the README's commands. */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** How a command ended and what it printed. */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The README's documented commands, run as a user types them (each must appear verbatim in the
 * README, so the test follows the text): through npm, with the build each one starts. Only the
 * environment isolates them from a service the developer may be running: their own data
 * directory, embedded PostgreSQL port and HTTP port. Jest's NODE_ENV is not passed on.
 */
describe('the README commands', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-readme-'));
    env = await isolatedCommandEnv(dataDir);
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The command, after checking the README documents it. */
  function documented(command: string): string {
    expect(README).toContain(command);
    return command;
  }

  function run(command: string, timeoutMs = 300_000): Promise<Run> {
    const child = start(command);
    const output = collect(child);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop(child);
        reject(
          new Error(`${command} still running after ${timeoutMs} ms:\n${output.stdout}${output.stderr}`),
        );
      }, timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, ...output });
      });
    });
  }

  /** `sh -c command` in its own process group, so that stop() ends npm and what it started. */
  function start(command: string): ChildProcess {
    return spawn('sh', ['-c', command], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  function collect(child: ChildProcess): { stdout: string; stderr: string } {
    const output = { stdout: '', stderr: '' };
    child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
    return output;
  }

  /** SIGTERM to the command's process group; resolves once its shell has exited. */
  function stop(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      process.kill(-child.pid!, 'SIGTERM');
    });
  }

  /** Waits until the running command has printed a line matching `pattern`. */
  async function printed(child: ChildProcess, output: { stdout: string; stderr: string }, pattern: RegExp) {
    const deadline = Date.now() + 180_000;
    while (!pattern.test(output.stdout + output.stderr)) {
      if (child.exitCode !== null)
        throw new Error(`exited ${child.exitCode}:\n${output.stdout}${output.stderr}`);
      if (Date.now() > deadline)
        throw new Error(`never printed ${pattern}:\n${output.stdout}${output.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('npm run demo: an exact backup of the generated org and a restored drill, exit 0', async () => {
    const demo = await run(documented('npm run demo'));
    expect({ code: demo.code, stderr: demo.code === 0 ? '' : demo.stderr }).toEqual({ code: 0, stderr: '' });
    expect(demo.stdout).toMatch(/Backup [0-9a-f-]{36}: completed/);
    expect(demo.stdout).toContain('holds every org object    yes');
    expect(demo.stdout).toMatch(/Restore drill: completed .*\n.* back as backed up: yes/);
  });

  (HAVE_FIXTURES ? it : it.skip)(
    'npm run demo on the recorded Okta objects: one JSON line of a completed, exact backup and drill, exit 0',
    async () => {
      documented('--fixtures ../shared/fixtures/okta/vcr');
      documented('--json');
      const demo = await run('npm run demo -- --fixtures ../shared/fixtures/okta/vcr --json');
      const summary = JSON.parse(demo.stdout.trim().split('\n').pop()!);
      expect({ code: demo.code, summary }).toMatchObject({
        code: 0,
        summary: {
          status: 'completed',
          exact: true,
          restore: { status: 'completed', restored: true, writes: { failed: 0 } },
        },
      });
    },
  );

  (HAVE_FIXTURES ? it : it.skip)(
    'npm run demo on a recorded org without an Okta group: the drill deletes another type it can restore, exit 0',
    async () => {
      documented('--fixture-org NAME');
      const demo = await run(
        'npm run -s demo -- --fixtures ../shared/fixtures/okta/vcr --fixture-org skip-auth-policy-00 --json',
      );
      const summary = JSON.parse(demo.stdout.trim().split('\n').pop()!);
      expect({ code: demo.code, summary }).toMatchObject({
        code: 0,
        summary: { status: 'completed', exact: true, restore: { status: 'completed', restored: true } },
      });
      expect(summary.resource_counts.group ?? 0).toBeLessThanOrEqual(1);
      expect(summary.restore.deleted.type).not.toBe('group');
    },
  );

  it('npm run demo -- --provider entra_id --json: one JSON line of a completed backup holding every object of the simulated Entra tenant and a restore drill that put it back, exit 0', async () => {
    const demo = await run(documented('npm run demo -- --provider entra_id --json'));
    expect({ code: demo.code, stderr: demo.code === 0 ? '' : demo.stderr }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(demo.stdout.trim().split('\n').pop()!);
    expect(summary).toMatchObject({
      status: 'completed',
      exact: true,
      restore: {
        status: 'completed',
        restored: true,
        deleted: { type: 'group' },
        writes: expect.objectContaining({ failed: 0 }),
      },
      resource_counts: expect.objectContaining({
        user: 200,
        conditional_access_policy: 2,
        application: 2,
        role_assignment: 2,
      }),
    });
  });

  it('npm run demo with a bad option: the usage and exit 2', async () => {
    const demo = await run('npm run -s demo -- --users many');
    expect(demo).toMatchObject({ code: 2, stdout: '' });
    expect(demo.stderr).toContain('--users must be a whole number\nUsage: npm run demo --');
  });

  it('npm run demo whose database cannot start: exit 1 with the reason, not a hang', async () => {
    const blocked = join(dataDir, 'not-a-directory');
    writeFileSync(blocked, '');
    const saved = env.DATA_DIR;
    env.DATA_DIR = blocked;
    try {
      const demo = await run('npm run -s demo -- --json', 120_000);
      expect(demo).toMatchObject({ code: 1, stdout: '' });
      expect(demo.stderr).toContain('Demo failed: ');
    } finally {
      env.DATA_DIR = saved;
    }
  });

  it('npm start serves /api/health; the cli provisions a team and a client that gets a token, and reads a sign-in code the log never shows', async () => {
    const service = start(documented('npm start'));
    const output = collect(service);
    try {
      await printed(service, output, /Listening on /);
      const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
      expect(health.status).toBe(200);

      const team = await run(
        documented('npm run -s cli -- team:create --name Acme --owner-email it-admin@acme.example'),
      );
      expect(team).toMatchObject({ code: 0 });
      const { team_id } = JSON.parse(team.stdout) as { team_id: string };
      const client = await run(
        documented('npm run -s cli -- client:create --team <team_id> --role admin').replace(
          '<team_id>',
          team_id,
        ),
      );
      expect(client).toMatchObject({ code: 0 });
      const plan = await run(
        documented('npm run -s cli -- team:plan --team <team_id> --plan team').replace('<team_id>', team_id),
      );
      expect(plan).toMatchObject({ code: 0 });
      expect(JSON.parse(plan.stdout)).toEqual({ team_id, plan: 'team' });
      const { client_id, client_secret } = JSON.parse(client.stdout) as Record<string, string>;
      const token = await fetch(`http://127.0.0.1:${env.PORT}/oauth/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource: `http://localhost:${env.PORT}/api/`,
        }),
      });
      expect(token.status).toBe(200);

      const sent = await fetch(`http://127.0.0.1:${env.PORT}/api/auth/send-code`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: `http://localhost:${env.PORT}` },
        body: JSON.stringify({ email: 'it-admin@acme.example' }),
      });
      expect(sent.status).toBe(200);
      const outbox = await run(documented('npm run -s cli -- outbox:list --to it-admin@acme.example'));
      expect(outbox).toMatchObject({ code: 0 });
      const [email] = (JSON.parse(outbox.stdout) as { emails: Array<{ body: string }> }).emails;
      const code = /\b(\d{6})\b/.exec(email.body)![1];
      expect(output.stdout + output.stderr).toContain('outbox:list --to it-admin@acme.example');
      expect(output.stdout + output.stderr).not.toContain(code);
    } finally {
      await stop(service);
    }
  });

  it('npm run simulator serves an Okta org until stopped', async () => {
    const simulator = start(documented('npm run simulator -- --port 8443 --users 1000'));
    const output = collect(simulator);
    try {
      await printed(simulator, output, /"baseUrl"/);
      const { baseUrl } = JSON.parse(output.stdout.trim().split('\n').pop()!) as { baseUrl: string };
      expect(baseUrl).toMatch(/^https:\/\/[\w.]+:8443$/);
    } finally {
      await stop(simulator);
    }
  });
});
