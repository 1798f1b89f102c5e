import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { runCli } from '@tools/cli/cli-runner.js';
import { loadConfig, type AppConfig } from '@app/platform/config/app-config.js';
import { NotFoundError, ValidationError } from '@app/common/errors.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** What one CLI run printed and returned. */
interface Run {
  code: number;
  stdout: string[];
  stderr: string;
}

/**
 * The provisioning CLI, run in-process (as `npm run cli` would, minus the build) against the
 * database of a running service, so what it creates is checked at the service's token endpoint.
 */
describe('provisioning CLI', () => {
  let ctx: TestApp;
  let config: AppConfig;

  beforeAll(async () => {
    ctx = await startTestApp();
    config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: ctx.databaseUrl,
      DATA_DIR: ctx.dataDir,
      MASTER_KEY: ctx.config.MASTER_KEY!,
      LOG_LEVEL: 'error',
    });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  async function cli(...argv: string[]): Promise<Run> {
    const run: Run = { code: -1, stdout: [], stderr: '' };
    run.code = await runCli(argv, config, {
      stdout: (line) => run.stdout.push(line),
      stderr: (line) => (run.stderr += `${line}\n`),
    });
    return run;
  }

  async function newTeam(
    ownerEmail = `ops-${randomUUID()}@example.com`,
  ): Promise<{ team_id: string; owner_user_id: string }> {
    const run = await cli('team:create', '--name', 'Acme', '--owner-email', ownerEmail);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout[0]);
  }

  it('creates a team and prints one JSON line', async () => {
    const run = await cli('team:create', '--name', 'Acme', '--owner-email', 'ops@acme.test');
    expect(run).toMatchObject({ code: 0, stdout: [expect.any(String)] });
    expect(JSON.parse(run.stdout[0])).toEqual({
      team_id: expect.any(String),
      owner_user_id: expect.any(String),
    });
  });

  it('reuses the owner of an e-mail address whatever its case', async () => {
    const first = await newTeam('Jane.Doe@Example.com');
    const second = await newTeam('jane.doe@example.COM');
    expect(second.team_id).not.toBe(first.team_id);
    expect(second.owner_user_id).toBe(first.owner_user_id);
  });

  it('creates a client whose secret works once printed, and stores only its hash', async () => {
    const { team_id } = await newTeam();
    const run = await cli('client:create', '--team', team_id, '--role', 'admin', '--name', 'CI');

    expect(run.code).toBe(0);
    expect(run.stdout).toHaveLength(1);
    const client = JSON.parse(run.stdout[0]);
    expect(client).toEqual({
      client_id: expect.stringMatching(/^ic_[A-Za-z0-9_-]{22}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      team_id,
      role: 'admin',
    });
    expect(run.stderr).toMatch(/shown only once/);

    const token = await ctx.token(client.client_id, client.client_secret);
    await ctx.http.get('/api/connections').set('Authorization', `Bearer ${token}`).expect(200);

    const [row] = await ctx.app
      .get(DataSource)
      .query('SELECT row_to_json(c)::text AS json, secret_hash FROM oauth_clients c WHERE client_id = $1', [
        client.client_id,
      ]);
    expect(row.secret_hash).toMatch(/^sha256:/);
    expect(row.json).not.toContain(client.client_secret);
  });

  it.each([
    [['team:delete']],
    [['team:create', '--name', 'Acme']],
    [['team:create', '--name', 'Acme', '--owner-email', 'a@acme.test', '--verbose']],
    [['client:create', '--team', randomUUID(), '--role', 'root']],
    [['team:create', '--name', 'Acme', '--owner-email', 'not-an-address']],
  ])('prints usage and exits 2 for %j', async (argv) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toMatch(/Usage:/);
  });

  it('lists the outbox for an address, newest first, and the log names the command, never the code', async () => {
    const { team_id } = await newTeam('Outbox.Owner@acme.test');
    expect(team_id).toEqual(expect.any(String));
    const logged: string[] = [];
    Logger.overrideLogger({
      log: (message: unknown) => logged.push(String(message)),
      error: (message: unknown) => logged.push(String(message)),
      warn: (message: unknown) => logged.push(String(message)),
    });
    try {
      for (let i = 0; i < 2; i++)
        await ctx.http
          .post('/api/auth/send-code')
          .set('Origin', ctx.baseUrl)
          .send({ email: 'outbox.owner@ACME.test' })
          .expect(200);
    } finally {
      Logger.overrideLogger(false);
    }

    const run = await cli('outbox:list', '--to', 'OUTBOX.owner@acme.test', '--limit', '1');
    expect(run).toMatchObject({ code: 0, stdout: [expect.any(String)] });
    const { emails } = JSON.parse(run.stdout[0]) as { emails: Array<Record<string, string>> };
    expect(emails).toEqual([
      {
        id: expect.any(String),
        to: 'outbox.owner@ACME.test',
        subject: 'Your idp-backup sign-in code',
        body: expect.stringMatching(/\b\d{6}\b/),
        created_at: expect.any(String),
      },
    ]);
    const code = /\b(\d{6})\b/.exec(emails[0].body)![1];
    const [newest] = await ctx.app
      .get(DataSource)
      .query('SELECT body FROM outbox_emails WHERE lower(recipient) = $1 ORDER BY created_at DESC LIMIT 1', [
        'outbox.owner@acme.test',
      ]);
    expect(newest.body).toBe(emails[0].body);
    expect(logged.filter((line) => line.includes('outbox:list --to outbox.owner@ACME.test'))).toHaveLength(2);
    expect(logged.filter((line) => line.includes(code))).toEqual([]);
  });

  it('exits 2 for an outbox limit out of bounds', async () => {
    for (const limit of ['0', '101', 'ten']) {
      const run = await cli('outbox:list', '--limit', limit);
      expect(run).toMatchObject({ code: 2, stdout: [] });
      expect(run.stderr).toContain('--limit must be a whole number from 1 to 100');
    }
  });

  it('exits 1 for a team that does not exist', async () => {
    const run = await cli('client:create', '--team', randomUUID(), '--role', 'viewer');
    expect(run).toMatchObject({ code: 1, stdout: [] });
    expect(run.stderr).toMatch(/Team not found/);
  });
});

describe('TeamsService', () => {
  let ctx: TestApp;
  let sut: TeamsService;

  beforeAll(async () => {
    ctx = await startTestApp({ DEFAULT_PLAN: 'trial' });
    sut = ctx.app.get(TeamsService);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('gives a team the configured default plan unless told otherwise', async () => {
    const byDefault = await sut.createTeam({ name: 'A', ownerEmail: 'a@acme.test' });
    expect(byDefault.team).toEqual({
      id: expect.any(String),
      name: 'A',
      plan: 'trial',
      created_at: expect.any(String),
    });
    const chosen = await sut.createTeam({ name: 'B', ownerEmail: 'b@acme.test', plan: 'team' });
    expect(chosen.team.plan).toBe('team');
  });

  it('refuses an unknown plan and writes nothing', async () => {
    await expect(sut.createTeam({ name: 'C', ownerEmail: 'c@acme.test', plan: 'platinum' })).rejects.toThrow(
      ValidationError,
    );
    const [{ count }] = await ctx.app
      .get(DataSource)
      .query("SELECT count(*)::int AS count FROM users WHERE email = 'c@acme.test'");
    expect(count).toBe(0);
  });

  it('finds the owner of a team, and 404s for a missing one', async () => {
    const { team, owner } = await sut.createTeam({ name: 'D', ownerEmail: 'd@acme.test' });
    await expect(sut.getOwner(team.id)).resolves.toEqual(owner);
    await expect(sut.getOwner(randomUUID())).rejects.toThrow(NotFoundError);
    await expect(sut.getOwner('not-a-uuid')).rejects.toThrow(NotFoundError);
  });

  it('resolves a client to the actor it acts as: its team and role, on behalf of the owner', async () => {
    const { team, owner } = await sut.createTeam({ name: 'E', ownerEmail: 'e@acme.test' });
    const client = await sut.createClient({ teamId: team.id, role: 'auditor' });
    await expect(sut.resolveClientActor(client.clientId)).resolves.toEqual({
      teamId: team.id,
      userId: owner.id,
      role: 'auditor',
      clientId: client.clientId,
      teamDeletionAt: null,
    });
    await expect(sut.verifyClientSecret(client.clientId, client.clientSecret)).resolves.toBe(true);
    await expect(sut.verifyClientSecret(client.clientId, 'wrong')).resolves.toBe(false);
    await expect(sut.resolveClientActor('ic_unknown')).resolves.toBeNull();
  });
});
