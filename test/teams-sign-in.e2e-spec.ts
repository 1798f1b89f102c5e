import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const address = (): string => `person-${randomBytes(4).toString('hex')}@Example.COM`;

/** Who signs in as what (TeamsService.resolveSignIn), against the real database. */
describe('sign-in resolution', () => {
  let sut: TestApp;
  let selfService: TestApp;
  let db: pg.Client;

  const invite = async (teamId: string, email: string, role: string, expiresIn = '7 days'): Promise<void> => {
    await db.query(
      `INSERT INTO team_invitations (team_id, email, role, created_at, expires_at)
       VALUES ($1, $2, $3, now() - interval '8 days', now() + $4::interval)`,
      [teamId, email.toLowerCase(), role, expiresIn],
    );
  };
  const teamCount = async (): Promise<number> =>
    Number((await db.query('SELECT count(*) AS n FROM teams')).rows[0].n);

  beforeAll(async () => {
    sut = await startTestApp();
    selfService = await startTestApp({ SELF_SERVICE_TEAMS: 'true' });
    db = new pg.Client({ connectionString: sut.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await sut.close();
    await selfService.close();
  });

  it('resolves an existing owner, whatever the case and surrounding spaces of the address', async () => {
    const email = address();
    const { team, owner } = await sut.app.get(TeamsService).createTeam({ name: 'Acme', ownerEmail: email });
    const result = await sut.app.get(TeamsService).resolveSignIn(`  ${email.toUpperCase()} `);
    expect(result).toEqual({ userId: owner.id, teamId: team.id, role: 'super_admin' });
  });

  it('gives null for an unknown address and writes nothing when self-service is off (the default)', async () => {
    const before = await teamCount();
    expect(await sut.app.get(TeamsService).resolveSignIn(address())).toBeNull();
    expect(await teamCount()).toBe(before);
  });

  it('joins an invited address to its team with the invited role, once', async () => {
    const { teamId } = await sut.newClient();
    const email = address();
    await invite(teamId, email, 'operator');
    const teams = sut.app.get(TeamsService);

    const first = await teams.resolveSignIn(email);
    expect(first).toEqual({ userId: expect.any(String), teamId, role: 'operator' });
    const { rows } = await db.query(
      'SELECT accepted_at, accepted_by FROM team_invitations WHERE email = $1',
      [email.toLowerCase()],
    );
    expect(rows).toEqual([{ accepted_at: expect.any(Date), accepted_by: first!.userId }]);
    expect(await teams.resolveSignIn(email)).toEqual(first);
  });

  it('ignores an expired invitation', async () => {
    const { teamId } = await sut.newClient();
    const email = address();
    await invite(teamId, email, 'viewer', '-1 second');
    expect(await sut.app.get(TeamsService).resolveSignIn(email)).toBeNull();
  });

  it('lands an existing member who accepts an invitation in the inviting team', async () => {
    const email = address();
    const teams = sut.app.get(TeamsService);
    const home = await teams.createTeam({ name: 'Home', ownerEmail: email });
    const { teamId } = await sut.newClient();
    await invite(teamId, email, 'auditor');
    expect(await teams.resolveSignIn(email)).toEqual({ userId: home.owner.id, teamId, role: 'auditor' });
  });

  it('creates one owned team for an unknown address when self-service is on, even when asked concurrently', async () => {
    const email = address();
    const teams = selfService.app.get(TeamsService);
    const results = await Promise.all([teams.resolveSignIn(email), teams.resolveSignIn(email)]);
    expect(results[0]).toEqual({
      userId: expect.any(String),
      teamId: expect.any(String),
      role: 'super_admin',
    });
    expect(results[1]).toEqual(results[0]);
    expect(await teams.getOwner(results[0]!.teamId)).toEqual({
      id: results[0]!.userId,
      email: email.toLowerCase(),
    });
  });

  it('resolves a member actor with the current role, and null for a non-member or a malformed id', async () => {
    const teams = sut.app.get(TeamsService);
    const { teamId } = await sut.newClient();
    const email = address();
    await invite(teamId, email, 'viewer');
    const { userId } = (await teams.resolveSignIn(email))!;
    expect(await teams.resolveMemberActor(userId, teamId)).toEqual({
      teamId,
      userId,
      role: 'viewer',
      teamDeletionAt: null,
    });
    await db.query(`UPDATE team_members SET role = 'operator' WHERE user_id = $1`, [userId]);
    expect(await teams.resolveMemberActor(userId, teamId)).toEqual({
      teamId,
      userId,
      role: 'operator',
      teamDeletionAt: null,
    });
    const other = await sut.newClient();
    expect(await teams.resolveMemberActor(userId, other.teamId)).toBeNull();
    expect(await teams.resolveMemberActor('not-a-uuid', teamId)).toBeNull();
  });
});
