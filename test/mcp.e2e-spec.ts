import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { decodeJwt } from 'jose';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { McpTool, ToolAnswer } from '@app/mcp/mcp-tool.js';
import type { CheckComplianceTool } from '@app/mcp/tools/check-compliance.tool.js';
import type { CompareBackupsTool } from '@app/mcp/tools/compare-backups.tool.js';
import type { GetBackupTool } from '@app/mcp/tools/get-backup.tool.js';
import type { GetScoresTool } from '@app/mcp/tools/get-scores.tool.js';
import type { ListBackupsTool } from '@app/mcp/tools/list-backups.tool.js';
import type { ListConnectionsTool } from '@app/mcp/tools/list-connections.tool.js';
import type { PreviewRestoreTool } from '@app/mcp/tools/preview-restore.tool.js';
import type { RequestRestoreTool } from '@app/mcp/tools/request-restore.tool.js';
import type { ResourceTimelineTool } from '@app/mcp/tools/resource-timeline.tool.js';
import type { SearchBackupTool } from '@app/mcp/tools/search-backup.tool.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { Browser } from './support/browser.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, waitForRestore } from './support/restore-helpers.js';
import { newAddress, signInWithCode } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** Where the agents want their codes: nothing listens there, the browser stops before it. */
const REDIRECT = 'http://127.0.0.1:7777/callback';

/** Every tool, in the order tools/list shows them. */
const ALL_TOOLS = [
  'list_connections',
  'list_backups',
  'get_backup',
  'compare_backups',
  'resource_timeline',
  'search_backup',
  'check_compliance',
  'get_scores',
  'preview_restore',
  'request_restore',
];
/** The one tool that changes anything: it asks for a restore, which a person approves. */
const REQUEST_TOOL = 'request_restore';
/** What the `view backups` permission reaches: a viewer's agent sees these only. */
const VIEWER_TOOLS = [
  'list_backups',
  'get_backup',
  'compare_backups',
  'resource_timeline',
  'search_backup',
  'get_scores',
];

/**
 * The SDK's OAuthClientProvider as an MCP host implements it (keeping what the SDK hands it),
 * with the browser step left to the test: `redirectToAuthorization` only records the URL.
 */
class AgentAuth implements OAuthClientProvider {
  authorizationUrl?: URL;
  private information?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  constructor(private readonly name: string) {}

  get redirectUrl(): string {
    return REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A tool's structured answer, typed by its output schema. */
type Answer<T extends McpTool> = ToolAnswer<T['definition']>;

interface Answers {
  list_connections: Answer<ListConnectionsTool>;
  list_backups: Answer<ListBackupsTool>;
  get_backup: Answer<GetBackupTool>;
  compare_backups: Answer<CompareBackupsTool>;
  resource_timeline: Answer<ResourceTimelineTool>;
  search_backup: Answer<SearchBackupTool>;
  check_compliance: Answer<CheckComplianceTool>;
  get_scores: Answer<GetScoresTool>;
  preview_restore: Answer<PreviewRestoreTool>;
  request_restore: Answer<RequestRestoreTool>;
}

/**
 * A signed-in agent: its MCP client, its access token for the checks at the HTTP level, and the
 * browser session of the person it acts for (who uses the API themselves there).
 */
interface Agent {
  client: Client;
  token: string;
  tools: Tool[];
  browser: Browser;
}

/**
 * The MCP server (docs/mcp.md) driven by the official SDK's own client over Streamable HTTP
 * against the real app: discovery from the 401, dynamic client registration, PKCE sign-in and
 * consent on the service's pages, an RFC 8707 token for /mcp; tools filtered by role; every tool
 * called with valid and invalid arguments, each result checked against its output schema; the
 * audit trail; tokens of one resource refused by the other.
 */
describe('MCP server (SDK client over Streamable HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let before: BackupDto;
  let after: BackupDto;
  let editedUser: { id: string; name: string | null; title: unknown };
  /** The Okta admin who edited `editedUser` with their own API token, as the System Log names them. */
  let changer: { id: string; displayName: string; type: 'user' };
  let approverEmail: string;
  let ownerAgent: Agent;
  let viewerAgent: Agent;
  const ajv = new Ajv({ strict: false });

  /** Signs `email` in on a browser, then has an SDK client connect, sign in and consent. */
  async function signInAgent(email: string, clientName: string): Promise<Agent> {
    const browser = new Browser();
    expect((await signInWithCode(ctx, browser, email)).status).toBe(200);
    const auth = new AgentAuth(clientName);
    const url = new URL('/mcp', ctx.baseUrl);
    const first = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await expect(new Client({ name: 'test-agent', version: '1.0.0' }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    const authorize = auth.authorizationUrl!;
    expect(authorize.searchParams.get('resource')).toBe(ctx.config.MCP_RESOURCE);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('mcp');
    expect(auth.clientInformation()?.client_id).toMatch(/^rc_/); // dynamically registered

    const consent = await browser.follow(authorize.href, (next) => next.startsWith(ctx.baseUrl));
    expect([consent.status, consent.text.includes('Allow access?')]).toEqual([200, true]);
    expect(consent.text).toContain(clientName);
    const answer = await browser.postForm(`${consent.url}/consent`, { decision: 'allow' });
    const back = await browser.follow(answer.location!, (next) => next.startsWith(ctx.baseUrl));
    const code = new URL(back.location!).searchParams.get('code')!;
    await first.finishAuth(code);
    const token = auth.tokens()!.access_token;
    expect(decodeJwt(token)).toMatchObject({ aud: ctx.config.MCP_RESOURCE, scope: 'mcp' });

    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    // Listing first also makes the SDK client cache each tool's output schema validator, so
    // every callTool below is validated by the SDK as well as by `call`.
    const { tools } = await client.listTools();
    return { client, token, tools, browser };
  }

  /**
   * Calls a tool; a success must carry structuredContent valid against the listed output
   * schema (checked here with Ajv, besides the SDK client's own check) and the same JSON as text.
   */
  async function call(agent: Agent, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = (await agent.client.callTool({ name, arguments: args })) as CallToolResult;
    if (!result.isError) {
      const tool = agent.tools.find((candidate) => candidate.name === name)!;
      const validate = ajv.compile(tool.outputSchema!);
      expect([validate(result.structuredContent), validate.errors ?? null]).toEqual([true, null]);
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    }
    return result;
  }

  /** A tool's structured answer, after checking it succeeded. */
  async function answer<N extends keyof Answers>(
    agent: Agent,
    name: N,
    args: Record<string, unknown>,
  ): Promise<Answers[N]> {
    const result = await call(agent, name, args);
    expect([result.isError ?? false, result.content.length]).toEqual([false, 1]);
    return result.structuredContent as Answers[N];
  }

  /** A tool error's message, after checking it is one (never a protocol error). */
  async function toolError(agent: Agent, name: string, args: Record<string, unknown>): Promise<string> {
    const result = await call(agent, name, args);
    expect(result.isError).toBe(true);
    return (result.content[0] as { text: string }).text;
  }

  beforeAll(async () => {
    org = await startTestOrg({ users: 30, groups: 5, apps: 2, seed: 54 }, RESTORE_SCOPES);
    const okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    const ownerEmail = newAddress('owner');
    const { team } = await ctx.app.get(TeamsService).createTeam({ name: 'Acme', ownerEmail });
    admin = await ctx.newClient({ role: 'admin', teamId: team.id });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    before = await runBackup(ctx, admin.token, { connectionId });
    const [user, admin2] = org.sim.snapshot().user.filter((candidate) => candidate.data.status === 'ACTIVE');
    const profile = user.data.profile as Record<string, unknown>;
    editedUser = { id: user.id, name: String(profile.login), title: profile.title };
    const adminProfile = admin2.data.profile as Record<string, unknown>;
    changer = {
      id: admin2.id,
      displayName: `${String(adminProfile.firstName)} ${String(adminProfile.lastName)}`,
      type: 'user',
    };
    // An admin's own API token (SSWS): Okta's System Log names that admin as the actor.
    const edited = await okta.call('POST', `/api/v1/users/${user.id}`, {
      auth: null,
      headers: { authorization: `SSWS ${org.sim.createApiToken(admin2.id)}` },
      json: { profile: { ...profile, title: 'Chief Restorer' } },
    });
    expect(edited.status).toBe(200);
    after = await runBackup(ctx, admin.token, { connectionId });
    expect([before.status, after.status]).toEqual(['completed', 'completed']);

    const viewerEmail = newAddress('viewer');
    await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: viewerEmail, role: 'viewer' })
      .expect(201);
    // A second member who may restore (and so approve); only a super admin invites an admin.
    const superAdmin = await ctx.newClient({ role: 'super_admin', teamId: team.id });
    approverEmail = newAddress('approver');
    await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${superAdmin.token}`)
      .send({ email: approverEmail, role: 'admin' })
      .expect(201);
    ownerAgent = await signInAgent(ownerEmail, 'Claude Desktop (test)');
    viewerAgent = await signInAgent(viewerEmail, 'VS Code (test)');
  }, 240_000);

  afterAll(async () => {
    await ownerAgent?.client.close();
    await viewerAgent?.client.close();
    await ctx?.close();
    await org?.sim.close();
  });

  describe('authorization (MCP specification, "Authorization")', () => {
    it('answers 401 naming its own protected resource metadata, which names the authorization server', async () => {
      const response = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      const metadataUrl = `${ctx.baseUrl}/.well-known/oauth-protected-resource/mcp`;
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      const metadata = await (await fetch(metadataUrl)).json();
      expect(metadata).toEqual({
        resource: ctx.config.MCP_RESOURCE,
        authorization_servers: [ctx.baseUrl],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp'],
        resource_name: expect.any(String),
      });
    });

    it('refuses an /api/ token on /mcp, and an /mcp token on /api/', async () => {
      const onMcp = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(onMcp.status).toBe(401);
      expect(onMcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const onApi = await ctx.http.get('/api/backup/list').set('Authorization', `Bearer ${ownerAgent.token}`);
      expect(onApi.status).toBe(401);
      expect(onApi.headers['www-authenticate']).toContain('/.well-known/oauth-protected-resource/api/');
    });

    it("refuses a request a web page of another origin sends (DNS rebinding), with the agent's token", async () => {
      const response = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ownerAgent.token}`,
          origin: 'https://attacker.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(403);
    });

    it('gives an integration client no way into /mcp: its scope is the API only', async () => {
      const response = await ctx.http
        .post('/oauth/token')
        .auth(admin.clientId, admin.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials', resource: ctx.config.MCP_RESOURCE, scope: 'mcp' });
      expect([response.status, response.body.error]).toEqual([400, 'invalid_scope']);
      // Without a scope, the token carries none, and /mcp refuses it.
      const unscoped = await ctx.token(admin.clientId, admin.clientSecret, ctx.config.MCP_RESOURCE);
      expect(decodeJwt(unscoped)).toMatchObject({ aud: ctx.config.MCP_RESOURCE });
      expect(decodeJwt(unscoped).scope).toBeUndefined();
      const refused = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${unscoped}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([
        401,
        'The access token lacks the "mcp" scope',
      ]);
    });

    it('answers GET and DELETE with 405: the endpoint is stateless', async () => {
      const response = await fetch(`${ctx.baseUrl}/mcp`, {
        headers: { authorization: `Bearer ${ownerAgent.token}`, accept: 'text/event-stream' },
      });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
      const deleted = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${ownerAgent.token}` },
      });
      expect(deleted.status).toBe(405);
    });
  });

  describe('tools/list', () => {
    it('shows each role the tools its permissions allow, with schemas and annotations', () => {
      expect(ownerAgent.tools.map((tool) => tool.name)).toEqual(ALL_TOOLS);
      expect(viewerAgent.tools.map((tool) => tool.name)).toEqual(VIEWER_TOOLS);
      for (const tool of ownerAgent.tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        const asks = tool.name === REQUEST_TOOL;
        expect(tool.annotations).toMatchObject({
          readOnlyHint: !asks,
          destructiveHint: asks,
          idempotentHint: !asks,
        });
      }
    });

    it("answers a viewer's call of a tool its role lacks as a tool error", async () => {
      expect(await toolError(viewerAgent, 'preview_restore', { backupId: after.id })).toMatch(/not found/);
      expect(await toolError(viewerAgent, 'list_connections', {})).toMatch(/not found/);
      expect(await toolError(viewerAgent, REQUEST_TOOL, { backupId: before.id, mode: 'full' })).toMatch(
        /^not_found: Tool request_restore not found/,
      );
      const asked = await ctx.http
        .get('/api/approvals')
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(asked.body.total).toBe(0);
    });
  });

  describe('each tool, with valid and invalid arguments', () => {
    it('list_connections: the connections without credentials', async () => {
      const body = await answer(ownerAgent, 'list_connections', {});
      expect(body).toMatchObject({ total: 1, byProvider: { okta: 1 }, nextCursor: null });
      expect(body.connections[0]).toMatchObject({
        id: connectionId,
        provider: 'okta',
        org_url: org.sim.baseUrl,
      });
      expect(JSON.stringify(body)).not.toContain(org.integration.clientSecret);
      expect(JSON.stringify(body)).not.toContain(org.integration.clientId);
      expect(await toolError(ownerAgent, 'list_connections', { limit: 0 })).toMatch(/limit/);
    });

    it('list_backups: totals first, pages by cursor', async () => {
      const first = await answer(viewerAgent, 'list_backups', { limit: 1 });
      expect(first).toMatchObject({ total: 2, completed: 2, failed: 0 });
      expect(first.backups.map((backup: { id: string }) => backup.id)).toEqual([after.id]);
      const second = await answer(viewerAgent, 'list_backups', { limit: 1, cursor: first.nextCursor });
      expect([second.backups[0].id, second.nextCursor]).toEqual([before.id, null]);
      expect(await toolError(viewerAgent, 'list_backups', { connectionId: 'nope' })).toMatch(/connectionId/);
      expect(await toolError(viewerAgent, 'list_backups', { cursor: 'garbage' })).toMatch(/cursor/);
    });

    it('get_backup: counts by type; another id is not found', async () => {
      const body = await answer(viewerAgent, 'get_backup', { backupId: after.id });
      expect(body.backup).toMatchObject({
        id: after.id,
        status: 'completed',
        resource_counts: after.resource_counts,
      });
      expect(await toolError(viewerAgent, 'get_backup', { backupId: randomUUID() })).toMatch(/^not_found/);
      expect(await toolError(viewerAgent, 'get_backup', {})).toMatch(/backupId/);
    });

    it('compare_backups: the summary by action, severity and type, then the changes', async () => {
      const body = await answer(viewerAgent, 'compare_backups', {
        fromBackupId: before.id,
        toBackupId: after.id,
      });
      const rest = await ctx.http
        .post('/api/diff')
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ fromBackupId: before.id, toBackupId: after.id })
        .expect(200);
      expect(body.summary).toEqual(rest.body.summary);
      expect(body.summary.byType.user).toEqual({ added: 0, modified: 1, removed: 0 });
      expect(body.changes).toContainEqual(
        expect.objectContaining({
          resourceType: 'user',
          action: 'modified',
          id: editedUser.id,
          changedFields: expect.arrayContaining(['/profile/title']),
          changedBy: changer,
          changedAt: expect.any(String),
          attribution: 'recorded',
        }),
      );
      const restChange = (rest.body.changes as Array<Record<string, unknown>>).find(
        (change) => (change.resource as { id: string }).id === editedUser.id,
      );
      expect(restChange).toMatchObject({ changedBy: changer, changedAt: expect.any(String) });
      const byChanger = await answer(viewerAgent, 'compare_backups', {
        fromBackupId: before.id,
        toBackupId: after.id,
        actor: changer.id,
      });
      expect(byChanger.changes.map((change: { id: string }) => change.id)).toEqual([editedUser.id]);
      const later = await answer(viewerAgent, 'compare_backups', {
        fromBackupId: before.id,
        toBackupId: after.id,
        since: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect([later.matching, later.summary.total]).toEqual([0, 0]);
      const none = await answer(viewerAgent, 'compare_backups', {
        fromBackupId: before.id,
        toBackupId: after.id,
        action: 'removed',
      });
      expect([none.matching, none.changes]).toEqual([0, []]);
      expect(
        await toolError(viewerAgent, 'compare_backups', {
          fromBackupId: before.id,
          toBackupId: randomUUID(),
        }),
      ).toMatch(/^not_found/);
      expect(
        await toolError(viewerAgent, 'compare_backups', {
          fromBackupId: before.id,
          toBackupId: after.id,
          resourceTypes: ['no_such_type'],
        }),
      ).toMatch(/no_such_type/);
    });

    it("resource_timeline: the user's change, newest first", async () => {
      const body = await answer(viewerAgent, 'resource_timeline', {
        connectionId,
        resourceType: 'user',
        resourceId: editedUser.id,
      });
      expect(body.byChange).toEqual({ created: 1, modified: 1, deleted: 0 });
      expect(body.events[0]).toMatchObject({
        backupId: after.id,
        change: 'modified',
        changedBy: changer,
        changedAt: expect.any(String),
        attribution: 'recorded',
      });
      const rest = await ctx.http
        .get('/api/resource-timeline')
        .query({ connectionId, resourceType: 'user', resourceId: editedUser.id })
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(rest.body.events.at(-1)).toMatchObject({ changedAt: body.events[0].changedAt });
      const byChanger = await answer(viewerAgent, 'resource_timeline', {
        connectionId,
        resourceType: 'user',
        resourceId: editedUser.id,
        actor: changer.id,
      });
      expect(byChanger.events.map((event: { change: string }) => event.change)).toEqual(['modified']);
      const byNobody = await answer(viewerAgent, 'resource_timeline', {
        connectionId,
        resourceType: 'user',
        resourceId: editedUser.id,
        actor: '00unobody',
      });
      expect([byNobody.total, byNobody.events]).toEqual([0, []]);
      expect(
        await toolError(viewerAgent, 'resource_timeline', {
          connectionId,
          resourceType: 'user',
          resourceId: editedUser.id,
          since: 'yesterday',
        }),
      ).toMatch(/since/);
      expect(body.events[0].operations).toContainEqual({
        op: 'replace',
        path: '/profile/title',
        value: 'Chief Restorer',
      });
      expect(
        await toolError(viewerAgent, 'resource_timeline', {
          connectionId: randomUUID(),
          resourceType: 'user',
          resourceId: editedUser.id,
        }),
      ).toMatch(/^not_found/);
      expect(
        await toolError(viewerAgent, 'resource_timeline', {
          connectionId,
          resourceType: 'User!',
          resourceId: 'x',
        }),
      ).toMatch(/resourceType/);
    });

    it('search_backup: by part of a name, and by id', async () => {
      const byName = await answer(viewerAgent, 'search_backup', {
        backupId: after.id,
        query: editedUser.name!.slice(0, 6).toUpperCase(),
        resourceTypes: ['user'],
      });
      expect(byName.matches).toContainEqual({
        resourceType: 'user',
        id: editedUser.id,
        name: expect.any(String),
      });
      expect(byName.byType.user).toBe(byName.total);
      const byId = await answer(viewerAgent, 'search_backup', { backupId: after.id, query: editedUser.id });
      expect(byId.matches.map((match: { id: string }) => match.id)).toContain(editedUser.id);
      expect(
        await toolError(viewerAgent, 'search_backup', {
          backupId: after.id,
          query: 'x',
          resourceTypes: ['workflow'],
        }),
      ).toMatch(/holds no workflow/);
      expect(await toolError(viewerAgent, 'search_backup', { backupId: after.id, query: '' })).toMatch(
        /query/,
      );
    });

    it('check_compliance: score and counts first, then findings; one finding’s evidence on request', async () => {
      const body = await answer(ownerAgent, 'check_compliance', {
        connectionId,
        framework: 'soc2',
        limit: 5,
      });
      expect(body).toMatchObject({ framework: 'soc2', backupId: after.id, detail: null });
      const counted = Object.values(body.byStatus as Record<string, number>).reduce((sum, n) => sum + n, 0);
      expect(body.findings.length).toBe(Math.min(5, counted));
      const check = body.findings[0].check as string;
      const detailed = await answer(ownerAgent, 'check_compliance', {
        connectionId,
        framework: 'soc2',
        check,
      });
      expect(detailed.detail).toMatchObject({ check, evidence: { backupId: after.id } });
      expect(await toolError(ownerAgent, 'check_compliance', { connectionId, framework: 'sox' })).toMatch(
        /framework/,
      );
      expect(
        await toolError(ownerAgent, 'check_compliance', {
          connectionId,
          framework: 'soc2',
          check: 'no.such.check',
        }),
      ).toMatch(/no\.such\.check/);
    });

    it('get_scores: readiness, and a connection’s resilience', async () => {
      const body = await answer(viewerAgent, 'get_scores', { connectionId });
      expect(body.readiness.connections).toBe(1);
      const rest = await ctx.http
        .get('/api/scores/resilience')
        .query({ connectionId })
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(body.resilience).toEqual({ connectionId, ...rest.body });
      expect((await answer(viewerAgent, 'get_scores', {})).resilience).toBeNull();
      expect(await toolError(viewerAgent, 'get_scores', { connectionId: randomUUID() })).toMatch(
        /^not_found/,
      );
    });

    it('preview_restore: totals and counts by type, writing nothing', async () => {
      const body = await answer(ownerAgent, 'preview_restore', {
        backupId: before.id,
        resourceTypes: ['user'],
      });
      expect(body.byType).toContainEqual(expect.objectContaining({ resourceType: 'user', update: 1 }));
      expect(body.totals.update).toBeGreaterThanOrEqual(1);
      const selective = await answer(ownerAgent, 'preview_restore', {
        backupId: before.id,
        resourceIds: [editedUser.id, ...Array.from({ length: 24 }, (_, index) => `00unotthere${index}`)],
      });
      expect(selective.byType).toContainEqual(expect.objectContaining({ resourceType: 'user', update: 1 }));
      expect(await toolError(ownerAgent, 'preview_restore', { backupId: randomUUID() })).toMatch(
        /^not_found/,
      );
      expect(
        await toolError(ownerAgent, 'preview_restore', { backupId: before.id, resourceIds: 'x' }),
      ).toMatch(/resourceIds/);
    });
  });

  it('records each tool call in the audit trail with the OAuth client’s name', async () => {
    const response = await ctx.http
      .get('/api/audit-events')
      .query({ action: 'mcp.tool_called', limit: 500 })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    const events = response.body.events as Array<{
      actor: { type: string };
      target: { type: string; id: string };
      outcome: string;
      details: Record<string, unknown>;
    }>;
    // Calls refused before a tool runs are recorded too: a tool the role does not list, and
    // arguments the schema refuses (their names only).
    expect(events).toContainEqual(
      expect.objectContaining({
        target: { type: 'mcp_tool', id: 'preview_restore' },
        outcome: 'failure',
        details: expect.objectContaining({
          client_name: 'VS Code (test)',
          error: 'not_found: Tool preview_restore not found',
        }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        target: { type: 'mcp_tool', id: 'list_backups' },
        outcome: 'failure',
        details: expect.objectContaining({
          argument_names: ['connectionId'],
          error: expect.stringMatching(
            /^validation_failed: Invalid arguments for tool list_backups; connectionId: /,
          ),
        }),
      }),
    );
    // A long list argument is kept short in the trail: its first 20 items and a count of the rest.
    const selective = events.find(
      (event) =>
        event.target.id === 'preview_restore' && 'resourceIds' in ((event.details.arguments as object) ?? {}),
    );
    expect((selective?.details.arguments as { resourceIds: string[] }).resourceIds.slice(19)).toEqual([
      '00unotthere18',
      '(5 more)',
    ]);
    const names = new Set(events.map((event) => event.details.client_name));
    expect(names).toEqual(new Set(['Claude Desktop (test)', 'VS Code (test)']));
    expect(events).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'user' }),
        target: { type: 'mcp_tool', id: 'get_backup' },
        outcome: 'failure',
        details: expect.objectContaining({
          client_name: 'VS Code (test)',
          error: expect.stringMatching(/^not_found/),
        }),
      }),
    );
  });

  describe('request_restore: an agent asks, a person approves (docs/approvals.md)', () => {
    const liveTitle = () => {
      const user = org.sim.snapshot().user.find((candidate) => candidate.id === editedUser.id)!;
      return (user.data.profile as Record<string, unknown>).title;
    };
    const restores = async () =>
      (await ctx.http.get('/api/restore/history').set('Authorization', `Bearer ${admin.token}`).expect(200))
        .body.total as number;

    it('refuses arguments a restore would refuse, creating nothing', async () => {
      expect(await toolError(ownerAgent, REQUEST_TOOL, { backupId: before.id, mode: 'partial' })).toMatch(
        /mode/,
      );
      expect(await toolError(ownerAgent, REQUEST_TOOL, { backupId: before.id, mode: 'selective' })).toMatch(
        /^validation_failed: .*resourceTypes/,
      );
      expect(
        await toolError(ownerAgent, REQUEST_TOOL, { backupId: before.id, mode: 'full', actor: changer.id }),
      ).toMatch(/actor/);
      expect(await toolError(ownerAgent, REQUEST_TOOL, { backupId: randomUUID(), mode: 'full' })).toMatch(
        /^not_found/,
      );
      const asked = await ctx.http
        .get('/api/approvals')
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(asked.body.total).toBe(0);
    });

    it('stays pending with the team setting off, the requester cannot approve it, a second member does and it runs', async () => {
      const settings = await ctx.http
        .get('/api/team/approval-settings')
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(settings.body.settings.enabled).toBe(false);
      const restoresBefore = await restores();

      const body = await answer(ownerAgent, REQUEST_TOOL, {
        backupId: before.id,
        mode: 'selective',
        resourceTypes: ['user'],
        resourceIds: [editedUser.id],
      });
      expect(body).toMatchObject({
        status: 'pending',
        summary: expect.stringContaining(before.id),
        preview: { sourceOrgUrl: org.sim.baseUrl, totals: { update: 1, create: 0 } },
      });
      expect(body.preview.byType.user).toMatchObject({ update: 1 });
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
      // An undo of that admin's changes since the backup is asked the same way, its dry run as counts.
      const undo = await answer(ownerAgent, REQUEST_TOOL, {
        backupId: before.id,
        mode: 'undo',
        actor: changer.id,
      });
      expect(undo).toMatchObject({
        status: 'pending',
        summary: expect.stringMatching(/^Undo of the changes since backup/),
        preview: { totals: { delete: 0, put_back: 1, recreate: 0 }, byType: { user: { put_back: 1 } } },
      });
      // Nothing ran: no restore, the org unchanged.
      expect([await restores(), liveTitle()]).toEqual([restoresBefore, 'Chief Restorer']);

      const api = (path: string) => `${ctx.baseUrl}${path}`;
      const detail = await ownerAgent.browser.get(api(`/api/approvals/${body.approvalId}`));
      expect(JSON.parse(detail.text).approval).toMatchObject({
        status: 'pending',
        requester: { client_name: 'Claude Desktop (test)', client_id: null },
        body: { mode: 'selective', resourceIds: [editedUser.id] },
      });
      // The person the agent acts for is the requester: they cannot approve it themselves.
      const own = await ownerAgent.browser.postJson(api(`/api/approvals/${body.approvalId}/approve`), {});
      expect([own.status, JSON.parse(own.text).code]).toEqual([403, 'forbidden']);
      expect([await restores(), liveTitle()]).toEqual([restoresBefore, 'Chief Restorer']);

      const approver = new Browser();
      expect((await signInWithCode(ctx, approver, approverEmail)).status).toBe(200);
      const rejected = await approver.postJson(api(`/api/approvals/${undo.approvalId}/reject`), {
        reason: 'the selective restore covers it',
      });
      expect([rejected.status, JSON.parse(rejected.text).approval.status]).toEqual([200, 'rejected']);
      const approved = await approver.postJson(api(`/api/approvals/${body.approvalId}/approve`), {});
      expect(approved.status).toBe(200);
      const approval = JSON.parse(approved.text).approval as {
        status: string;
        result: { restoreId: string };
      };
      expect(approval.status).toBe('executed');
      const done = await waitForRestore(ctx, admin.token, approval.result.restoreId);
      expect(done.restore.status).toBe('completed');
      expect([await restores(), liveTitle()]).toEqual([restoresBefore + 1, editedUser.title]);
    });
  });
});
