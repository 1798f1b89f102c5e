import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@app/common/permission.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** A member of a team who signed in after an invitation, with an integration client acting for them. */
interface Member {
  userId: string;
  email: string;
  clientId: string;
  token: string;
}

/**
 * Team management beyond the spec (docs/security.md "Team management"):
 * members, invitations, ownership and integration clients, one test per rule.
 */
describe('team management (HTTP, real PostgreSQL)', () => {
  let sut: TestApp;
  let owner: TestClient;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const address = (): string => `member-${randomBytes(4).toString('hex')}@example.com`;

  /** Invites through the API as `by`, then signs in as the address and gives it a client of its role. */
  async function join(team: TestClient, role: Exclude<Role, 'super_admin'>): Promise<Member> {
    const email = address();
    await sut.http.post('/api/team/invitations').set(bearer(team.token)).send({ email, role }).expect(201);
    const teams = sut.app.get(TeamsService);
    const signedIn = await teams.resolveSignIn(email);
    expect(signedIn).toEqual({ userId: expect.any(String), teamId: team.teamId, role });
    const client = await teams.createClient({ teamId: team.teamId, role, createdBy: signedIn!.userId });
    return {
      userId: signedIn!.userId,
      email,
      clientId: client.clientId,
      token: await sut.token(client.clientId, client.clientSecret),
    };
  }

  const members = async (token: string): Promise<Array<{ user_id: string; role: Role }>> =>
    (await sut.http.get('/api/team/members').set(bearer(token)).expect(200)).body.members;
  const roleOf = async (token: string, userId: string): Promise<Role | undefined> =>
    (await members(token)).find((member) => member.user_id === userId)?.role;

  beforeAll(async () => {
    sut = await startTestApp();
    owner = await sut.newClient();
  });
  afterAll(async () => {
    await sut?.close();
  });

  describe('who may manage the team', () => {
    it('lets super_admin and admin list the members with their roles', async () => {
      const admin = await join(owner, 'admin');
      for (const token of [owner.token, admin.token]) {
        expect(await members(token)).toEqual(
          expect.arrayContaining([
            {
              user_id: owner.ownerUserId,
              email: expect.any(String),
              name: null,
              role: 'super_admin',
              joined_at: expect.any(String),
            },
            {
              user_id: admin.userId,
              email: admin.email,
              name: null,
              role: 'admin',
              joined_at: expect.any(String),
            },
          ]),
        );
      }
    });

    it.each(['operator', 'auditor', 'viewer'] as const)(
      'refuses %s every team route with 403',
      async (role) => {
        const { token } = await join(owner, role);
        const calls = [
          sut.http.get('/api/team/members'),
          sut.http.patch(`/api/team/members/${owner.ownerUserId}`).send({ role: 'viewer' }),
          sut.http.delete(`/api/team/members/${owner.ownerUserId}`),
          sut.http.get('/api/team/invitations'),
          sut.http.post('/api/team/invitations').send({ email: address(), role: 'viewer' }),
          sut.http.delete(`/api/team/invitations/${randomUUID()}`),
          sut.http.post('/api/team/ownership/transfer').send({ user_id: owner.ownerUserId }),
          sut.http.get('/api/team/clients'),
          sut.http.delete(`/api/team/clients/${owner.clientId}`),
        ];
        for (const [index, call] of calls.entries()) {
          const response = await call.set(bearer(token));
          expect([index, response.status, response.body.code]).toEqual([index, 403, 'forbidden']);
        }
      },
    );

    it('only sees its own team: another team member is a 404 for every member route', async () => {
      const other = await sut.newClient();
      const stranger = await join(other, 'viewer');
      expect((await members(owner.token)).map((m) => m.user_id)).not.toContain(stranger.userId);
      const patch = await sut.http
        .patch(`/api/team/members/${stranger.userId}`)
        .set(bearer(owner.token))
        .send({ role: 'auditor' });
      const remove = await sut.http.delete(`/api/team/members/${stranger.userId}`).set(bearer(owner.token));
      const transfer = await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(owner.token))
        .send({ user_id: stranger.userId });
      expect([patch.status, remove.status, transfer.status]).toEqual([404, 404, 404]);
      expect(await roleOf(other.token, stranger.userId)).toBe('viewer');
    });
  });

  describe('invitations', () => {
    it('lets an admin invite below admin; the address joins at first sign-in with that role', async () => {
      const admin = await join(owner, 'admin');
      const email = `  New.Person-${randomBytes(3).toString('hex')}@Example.com `;
      const response = await sut.http
        .post('/api/team/invitations')
        .set(bearer(admin.token))
        .send({ email: email.trim(), role: 'operator' });
      expect(response.status).toBe(201);
      expect(response.body.invitation).toEqual({
        id: expect.any(String),
        email: email.trim().toLowerCase(),
        role: 'operator',
        invited_by: admin.userId,
        created_at: expect.any(String),
        expires_at: expect.any(String),
        status: 'pending',
      });
      const ttl =
        Date.parse(response.body.invitation.expires_at) - Date.parse(response.body.invitation.created_at);
      expect(ttl).toBe(7 * 24 * 3600 * 1000);
      const joined = await sut.app.get(TeamsService).resolveSignIn(email);
      expect(joined).toMatchObject({ teamId: owner.teamId, role: 'operator' });
      const list = await sut.http.get('/api/team/invitations').set(bearer(admin.token)).expect(200);
      expect(list.body.invitations.map((i: { id: string }) => i.id)).not.toContain(
        response.body.invitation.id,
      );
    });

    it('refuses an admin inviting an admin (403) and lets the owner do it', async () => {
      const admin = await join(owner, 'admin');
      const email = address();
      const refused = await sut.http
        .post('/api/team/invitations')
        .set(bearer(admin.token))
        .send({ email, role: 'admin' });
      expect(refused.status).toBe(403);
      const list = await sut.http.get('/api/team/invitations').set(bearer(owner.token));
      expect(list.body.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
      await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'admin' })
        .expect(201);
    });

    it('never invites a super_admin, an unknown role, a bad address or an unknown field (400)', async () => {
      const bodies = [
        { email: address(), role: 'super_admin' },
        { email: address(), role: 'owner' },
        { email: 'not-an-address', role: 'viewer' },
        { email: address(), role: 'viewer', team_id: randomUUID() },
      ];
      for (const body of bodies) {
        const response = await sut.http.post('/api/team/invitations').set(bearer(owner.token)).send(body);
        expect([body, response.status, response.body.code]).toEqual([body, 400, 'validation_failed']);
      }
    });

    it('answers 409 already_member for an address already in the team, whatever its case', async () => {
      const viewer = await join(owner, 'viewer');
      const response = await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email: viewer.email.toUpperCase(), role: 'auditor' });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('already_member');
    });

    it('renews a pending invitation instead of adding a second one', async () => {
      const email = address();
      const first = await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'viewer' });
      const second = await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'auditor' });
      expect(second.body.invitation).toMatchObject({ id: first.body.invitation.id, role: 'auditor' });
      const list = await sut.http.get('/api/team/invitations').set(bearer(owner.token));
      expect(list.body.invitations.filter((i: { email: string }) => i.email === email)).toHaveLength(1);
    });

    it('revokes a pending invitation: the address can no longer join', async () => {
      const email = address();
      const { body } = await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'viewer' });
      await sut.http
        .delete(`/api/team/invitations/${body.invitation.id}`)
        .set(bearer(owner.token))
        .expect(200);
      expect(await sut.app.get(TeamsService).resolveSignIn(email)).toBeNull();
      await sut.http
        .delete(`/api/team/invitations/${body.invitation.id}`)
        .set(bearer(owner.token))
        .expect(404);
    });

    it('lets only the owner revoke or replace an admin invitation', async () => {
      const admin = await join(owner, 'admin');
      const email = address();
      const { body } = await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'admin' });
      await sut.http
        .delete(`/api/team/invitations/${body.invitation.id}`)
        .set(bearer(admin.token))
        .expect(403);
      await sut.http
        .post('/api/team/invitations')
        .set(bearer(admin.token))
        .send({ email, role: 'viewer' })
        .expect(403);
      await sut.http
        .delete(`/api/team/invitations/${body.invitation.id}`)
        .set(bearer(owner.token))
        .expect(200);
    });

    it("answers 404 for another team's invitation and leaves it in place", async () => {
      const other = await sut.newClient();
      const email = address();
      const { body } = await sut.http
        .post('/api/team/invitations')
        .set(bearer(other.token))
        .send({ email, role: 'viewer' });
      await sut.http
        .delete(`/api/team/invitations/${body.invitation.id}`)
        .set(bearer(owner.token))
        .expect(404);
      expect(await sut.app.get(TeamsService).resolveSignIn(email)).toMatchObject({ teamId: other.teamId });
    });
  });

  describe('roles', () => {
    it('lets an admin move a member between roles below admin', async () => {
      const admin = await join(owner, 'admin');
      const operator = await join(owner, 'operator');
      const response = await sut.http
        .patch(`/api/team/members/${operator.userId}`)
        .set(bearer(admin.token))
        .send({ role: 'viewer' });
      expect(response.status).toBe(200);
      expect(response.body.member).toMatchObject({ user_id: operator.userId, role: 'viewer' });
      expect(await roleOf(owner.token, operator.userId)).toBe('viewer');
    });

    it('refuses an admin granting admin, or taking it away (403); the owner does both', async () => {
      const admin = await join(owner, 'admin');
      const otherAdmin = await join(owner, 'admin');
      const operator = await join(owner, 'operator');
      await sut.http
        .patch(`/api/team/members/${operator.userId}`)
        .set(bearer(admin.token))
        .send({ role: 'admin' })
        .expect(403);
      await sut.http
        .patch(`/api/team/members/${otherAdmin.userId}`)
        .set(bearer(admin.token))
        .send({ role: 'viewer' })
        .expect(403);
      expect([
        await roleOf(owner.token, operator.userId),
        await roleOf(owner.token, otherAdmin.userId),
      ]).toEqual(['operator', 'admin']);
      await sut.http
        .patch(`/api/team/members/${operator.userId}`)
        .set(bearer(owner.token))
        .send({ role: 'admin' })
        .expect(200);
      await sut.http
        .patch(`/api/team/members/${otherAdmin.userId}`)
        .set(bearer(owner.token))
        .send({ role: 'viewer' })
        .expect(200);
      expect([
        await roleOf(owner.token, operator.userId),
        await roleOf(owner.token, otherAdmin.userId),
      ]).toEqual(['admin', 'viewer']);
    });

    it('refuses anyone changing their own role (403), the owner included', async () => {
      const admin = await join(owner, 'admin');
      const self = await sut.http
        .patch(`/api/team/members/${admin.userId}`)
        .set(bearer(admin.token))
        .send({ role: 'viewer' });
      expect(self.status).toBe(403);
      const ownSelf = await sut.http
        .patch(`/api/team/members/${owner.ownerUserId}`)
        .set(bearer(owner.token))
        .send({ role: 'admin' });
      expect(ownSelf.status).toBe(403);
      expect([await roleOf(owner.token, admin.userId), await roleOf(owner.token, owner.ownerUserId)]).toEqual(
        ['admin', 'super_admin'],
      );
    });

    it('never demotes the owner outside a transfer (409 owner_protected), nor assigns super_admin (400)', async () => {
      const admin = await join(owner, 'admin');
      const demote = await sut.http
        .patch(`/api/team/members/${owner.ownerUserId}`)
        .set(bearer(admin.token))
        .send({ role: 'viewer' });
      expect([demote.status, demote.body.code]).toEqual([409, 'owner_protected']);
      const promote = await sut.http
        .patch(`/api/team/members/${admin.userId}`)
        .set(bearer(owner.token))
        .send({ role: 'super_admin' });
      expect([promote.status, promote.body.code]).toEqual([400, 'validation_failed']);
      expect(await roleOf(owner.token, owner.ownerUserId)).toBe('super_admin');
    });

    it("narrows a demoted member's integration client at once", async () => {
      const admin = await join(owner, 'admin');
      await sut.http.get('/api/connections').set(bearer(admin.token)).expect(200);
      await sut.http
        .patch(`/api/team/members/${admin.userId}`)
        .set(bearer(owner.token))
        .send({ role: 'viewer' })
        .expect(200);
      await sut.http.get('/api/connections').set(bearer(admin.token)).expect(403);
      await sut.http.get('/api/backup/list').set(bearer(admin.token)).expect(200);
    });
  });

  describe('removal', () => {
    it("removes a member and stops their clients' tokens at once (401)", async () => {
      const admin = await join(owner, 'admin');
      const viewer = await join(owner, 'viewer');
      await sut.http.get('/api/backup/list').set(bearer(viewer.token)).expect(200);
      await sut.http.delete(`/api/team/members/${viewer.userId}`).set(bearer(admin.token)).expect(200);
      expect(await roleOf(owner.token, viewer.userId)).toBeUndefined();
      await sut.http.get('/api/backup/list').set(bearer(viewer.token)).expect(401);
      const clients = (await sut.http.get('/api/team/clients').set(bearer(owner.token))).body.clients;
      expect(clients.find((c: { client_id: string }) => c.client_id === viewer.clientId).revoked_at).toEqual(
        expect.any(String),
      );
    });

    it('refuses an admin removing an admin (403), anyone removing themselves (403), anyone removing the owner (409)', async () => {
      const admin = await join(owner, 'admin');
      const otherAdmin = await join(owner, 'admin');
      await sut.http.delete(`/api/team/members/${otherAdmin.userId}`).set(bearer(admin.token)).expect(403);
      await sut.http.delete(`/api/team/members/${admin.userId}`).set(bearer(admin.token)).expect(403);
      const ownerRemoval = await sut.http
        .delete(`/api/team/members/${owner.ownerUserId}`)
        .set(bearer(admin.token));
      expect([ownerRemoval.status, ownerRemoval.body.code]).toEqual([409, 'owner_protected']);
      expect([await roleOf(owner.token, admin.userId), await roleOf(owner.token, otherAdmin.userId)]).toEqual(
        ['admin', 'admin'],
      );
      await sut.http.delete(`/api/team/members/${otherAdmin.userId}`).set(bearer(owner.token)).expect(200);
    });
  });

  describe('ownership transfer', () => {
    it('refuses an admin (403)', async () => {
      const admin = await join(owner, 'admin');
      await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(admin.token))
        .send({ user_id: admin.userId })
        .expect(403);
      expect(await roleOf(owner.token, owner.ownerUserId)).toBe('super_admin');
    });

    it('answers 409 already_owner for the owner and 404 for a non-member', async () => {
      const self = await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(owner.token))
        .send({ user_id: owner.ownerUserId });
      expect([self.status, self.body.code]).toEqual([409, 'already_owner']);
      await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(owner.token))
        .send({ user_id: randomUUID() })
        .expect(404);
    });

    it('promotes the member and demotes the old owner to admin in one step; there is always one owner', async () => {
      const team = await sut.newClient();
      const heir = await join(team, 'operator');
      const response = await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(team.token))
        .send({ user_id: heir.userId });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        owner: { user_id: heir.userId, role: 'super_admin' },
        previous_owner: { user_id: team.ownerUserId, role: 'admin' },
      });
      const roles = (await members(team.token)).map((member) => member.role);
      expect(roles.filter((role) => role === 'super_admin')).toHaveLength(1);
      expect(await sut.app.get(TeamsService).getOwner(team.teamId)).toMatchObject({ id: heir.userId });
      // The old owner's super_admin client now acts as admin: it cannot transfer back.
      await sut.http
        .post('/api/team/ownership/transfer')
        .set(bearer(team.token))
        .send({ user_id: team.ownerUserId })
        .expect(403);
      await sut.http.get('/api/connections').set(bearer(team.token)).expect(200);
    });
  });

  describe('integration clients', () => {
    it('lists the clients of the team only, never a secret', async () => {
      const other = await sut.newClient();
      const response = await sut.http.get('/api/team/clients').set(bearer(owner.token)).expect(200);
      const ids = response.body.clients.map((c: { client_id: string }) => c.client_id);
      expect(ids).toContain(owner.clientId);
      expect(ids).not.toContain(other.clientId);
      expect(
        response.body.clients.find((c: { client_id: string }) => c.client_id === owner.clientId),
      ).toEqual({
        client_id: owner.clientId,
        name: 'super_admin integration',
        role: 'super_admin',
        created_by: owner.ownerUserId,
        created_at: expect.any(String),
        revoked_at: null,
      });
      expect(response.text).not.toContain('sha256:');
    });

    it('revokes a client: its unexpired token gets 401 at once and the token endpoint refuses it', async () => {
      const team = await sut.newClient();
      const viewer = await sut.newClient({ role: 'viewer', teamId: team.teamId });
      await sut.http.get('/api/backup/list').set(bearer(viewer.token)).expect(200);
      await sut.http.delete(`/api/team/clients/${viewer.clientId}`).set(bearer(team.token)).expect(200);
      const after = await sut.http.get('/api/backup/list').set(bearer(viewer.token));
      expect(after.status).toBe(401);
      expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
      const token = await sut.http
        .post('/oauth/token')
        .auth(viewer.clientId, viewer.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect([token.status, token.body.error]).toEqual([401, 'invalid_client']);
      await sut.http.delete(`/api/team/clients/${viewer.clientId}`).set(bearer(team.token)).expect(404);
    });

    it('refuses an admin revoking an admin client (403); the owner may', async () => {
      const admin = await join(owner, 'admin');
      const adminClient = await sut.newClient({ role: 'admin', teamId: owner.teamId });
      await sut.http.delete(`/api/team/clients/${adminClient.clientId}`).set(bearer(admin.token)).expect(403);
      await sut.http.get('/api/connections').set(bearer(adminClient.token)).expect(200);
      await sut.http.delete(`/api/team/clients/${adminClient.clientId}`).set(bearer(owner.token)).expect(200);
    });

    it("answers 404 for another team's client and leaves it working", async () => {
      const other = await sut.newClient({ role: 'viewer' });
      await sut.http.delete(`/api/team/clients/${other.clientId}`).set(bearer(owner.token)).expect(404);
      await sut.http.get('/api/backup/list').set(bearer(other.token)).expect(200);
    });
  });

  it('describes every team route in the OpenAPI document, with bearer security', async () => {
    const { body } = await sut.http.get('/api/openapi.json').expect(200);
    const operations = [
      ['/api/team/members', 'get'],
      ['/api/team/members/{userId}', 'patch'],
      ['/api/team/members/{userId}', 'delete'],
      ['/api/team/ownership/transfer', 'post'],
      ['/api/team/invitations', 'get'],
      ['/api/team/invitations', 'post'],
      ['/api/team/invitations/{id}', 'delete'],
      ['/api/team/clients', 'get'],
      ['/api/team/clients/{clientId}', 'delete'],
    ];
    for (const [path, method] of operations) {
      expect([path, method, body.paths[path]?.[method]?.security]).toEqual([
        path,
        method,
        [{ bearer: [] }, { oauth2: ['api'] }],
      ]);
    }
    expect(body.components.schemas.CreateInvitationDto.properties.role.enum).toEqual([
      'admin',
      'operator',
      'auditor',
      'viewer',
    ]);
  });
});
