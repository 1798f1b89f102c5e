import { ApprovalGate, type HeldForApproval } from '@app/approvals/approval-gate.js';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { PRIMARY_PROVIDER_KIND, registeredProviders, requireProvider } from '@libs/providers/registry.js';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { Actor } from '@app/common/actor.js';
import { NotFoundError, ValidationError } from '@app/common/errors.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { SecurityService } from '@app/platform/security/security.service.js';
import type { ConnectionRef } from './connection-ref.js';
import { ConnectionsRepository } from './connections.repository.js';
import type { ConnectionEntity } from './connection.entity.js';
import { type ConnectionDto, toConnectionDto } from './dto/connection.dto.js';
import type { CreateConnectionDto } from './dto/create-connection.dto.js';
import type { UpdateConnectionDto } from './dto/update-connection.dto.js';
import { ProviderConnectorFactory } from './provider-connector.factory.js';

/**
 * Connections of a team (spec "Connections"). Credentials are proven by fetching a token
 * before anything is saved; the secret is stored encrypted, bound to its row.
 */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly connectors: ProviderConnectorFactory,
    private readonly security: SecurityService,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
    private readonly gate: ApprovalGate,
  ) {}

  /**
   * @throws PlanLimitExceededError (402) `provider_kinds`, `connections` or `trial_ended`, checked first
   * @throws ValidationError (400) for a non-https or not allowed org_url, a credential field
   *   missing or of another kind of provider, or credentials the provider refuses.
   */
  async create(actor: Actor, input: CreateConnectionDto): Promise<ConnectionDto> {
    const provider = input.provider ?? PRIMARY_PROVIDER_KIND;
    await this.plans.assertCanAddConnection(actor, provider);
    const orgUrl = normalizeOrgUrl(orgUrlOf(provider, input.org_url));
    const credentials = credentialsOf(provider, input);
    assertCredentialFields(provider, input, credentials);
    await this.verify({ provider, orgUrl, credentials });
    const id = randomUUID();
    const sealed = this.seal(id, provider, credentials);
    const row = await this.audit.audited(
      (tx) =>
        this.connections.insert(
          {
            id,
            teamId: actor.teamId,
            ownerUserId: actor.userId,
            provider,
            orgUrl,
            orgName: input.org_name ?? null,
            ...sealed,
            lastVerifiedAt: new Date(),
          },
          tx,
        ),
      () => ({
        ...byCaller(actor),
        action: 'connection.created',
        target: { type: 'connection', id },
        outcome: 'success',
        // The fields that are not secret (Okta: client_id), never a secret.
        details: { provider, org_url: orgUrl, ...sealed.publicCredentials },
      }),
    );
    return toConnectionDto(row);
  }

  /**
   * Changes the name and credentials; changed credentials are proven with a token request
   * before they replace the old ones.
   * @throws NotFoundError when missing or another team's; ValidationError when the provider refuses.
   */
  async update(actor: Actor, id: string, input: UpdateConnectionDto): Promise<ConnectionDto> {
    const row = await this.findOrThrow(actor.teamId, id);
    const changes: Parameters<ConnectionsRepository['update']>[2] = {};
    if (input.org_name !== undefined) changes.orgName = input.org_name;
    const changed = credentialsOf(row.provider, input);
    if (Object.keys(changed).length > 0) {
      assertOneOfEach(row.provider, changed);
      const credentials = { ...withoutAlternatives(row.provider, this.unseal(row), changed), ...changed };
      await this.verify({ provider: row.provider, orgUrl: row.orgUrl, credentials });
      Object.assign(changes, this.seal(row.id, row.provider, credentials), { lastVerifiedAt: new Date() });
    }
    if (Object.keys(changes).length > 0) {
      await this.audit.audited(
        (tx) => this.connections.update(actor.teamId, id, changes, tx),
        () => ({
          ...byCaller(actor),
          action: 'connection.updated',
          target: { type: 'connection', id },
          outcome: 'success',
          // The names of the fields changed, never their values (one is the secret).
          details: {
            changed: Object.keys(input).filter(
              (key) => input[key as keyof UpdateConnectionDto] !== undefined,
            ),
          },
        }),
      );
    }
    return toConnectionDto(await this.findOrThrow(actor.teamId, id));
  }

  /**
   * When the team's two-person approval covers connection deletion, holds it instead
   * (docs/approvals.md). @returns the pending request when held, else null
   * @throws NotFoundError when missing or another team's.
   */
  async remove(actor: Actor, id: string): Promise<HeldForApproval | null> {
    const row = await this.findOrThrow(actor.teamId, id);
    const held = await this.gate.hold(actor, 'connection_delete', async () => ({
      target: { type: 'connection', id },
      summary: `Delete connection ${row.orgName ?? row.orgUrl}`,
      body: {},
    }));
    if (held) return held;
    await this.audit.audited(
      (tx) => this.connections.softDelete(actor.teamId, id, tx),
      () => ({
        ...byCaller(actor),
        action: 'connection.deleted',
        target: { type: 'connection', id },
        outcome: 'success',
        details: { org_url: row.orgUrl },
      }),
    );
    return null;
  }

  async list(actor: Actor): Promise<ConnectionDto[]> {
    return (await this.connections.listForTeam(actor.teamId)).map(toConnectionDto);
  }

  /** @throws NotFoundError when missing or another team's. */
  async get(actor: Actor, id: string): Promise<ConnectionDto> {
    return toConnectionDto(await this.findOrThrow(actor.teamId, id));
  }

  /** The connection for another feature's use; @throws NotFoundError when missing or another team's. */
  async getRef(teamId: string, id: string): Promise<ConnectionRef> {
    const row = await this.findOrThrow(teamId, id);
    return {
      id: row.id,
      teamId: row.teamId,
      ownerUserId: row.ownerUserId,
      provider: row.provider,
      orgUrl: row.orgUrl,
      orgName: row.orgName,
    };
  }

  /**
   * A connector with the decrypted credentials, for a job; the caller closes it.
   * @param restoreTypes types a restore will write (the connector asks for their write scopes)
   */
  async openConnector(
    teamId: string,
    id: string,
    restoreTypes?: readonly string[],
  ): Promise<ProviderConnector> {
    const row = await this.findOrThrow(teamId, id);
    return this.connectors.create(
      { provider: row.provider, orgUrl: row.orgUrl, credentials: this.unseal(row) },
      restoreTypes,
    );
  }

  /**
   * The team's connection whose types `includeWorkflows` adds to connection `id`'s backups: of the
   * kind its provider names (`workflowsKind`) and to the same org URL, the oldest if several.
   * @throws NotFoundError when `id` is missing or another team's; ValidationError
   *   `workflows_not_applicable` for a provider with no such kind, `no_workflows_connection` when
   *   the team has no such connection
   */
  async workflowsConnectionOf(teamId: string, id: string): Promise<ConnectionRef> {
    const row = await this.findOrThrow(teamId, id);
    const descriptor = requireProvider(row.provider);
    const kind = descriptor.workflowsKind;
    if (!kind)
      throw new ValidationError(
        `includeWorkflows applies to the primary provider kind only, not ${row.provider}`,
        {
          code: 'workflows_not_applicable',
        },
      );
    const found = (await this.connections.listForTeam(teamId)).find(
      (candidate) => candidate.provider === kind && candidate.orgUrl === row.orgUrl,
    );
    if (!found)
      throw new ValidationError(
        `includeWorkflows needs a ${requireProvider(kind).label} connection to ${row.orgUrl} (docs/okta-workflows.md)`,
        { code: 'no_workflows_connection' },
      );
    return this.getRef(teamId, found.id);
  }

  /** The sealed blob of every credential field, and the fields that are not secret in the clear. */
  private seal(
    id: string,
    provider: ProviderKind,
    credentials: Readonly<Record<string, string>>,
  ): Pick<ConnectionEntity, 'credentialsEnc' | 'publicCredentials'> {
    const open = requireProvider(provider).credentials.filter((field) => !field.secret);
    return {
      credentialsEnc: this.security.encryptSecret(JSON.stringify(credentials), credentialsAad(id)),
      publicCredentials: Object.fromEntries(open.map(({ name }) => [name, credentials[name]])),
    };
  }

  private unseal(row: ConnectionEntity): Record<string, string> {
    return JSON.parse(this.security.decryptSecret(row.credentialsEnc, credentialsAad(row.id))) as Record<
      string,
      string
    >;
  }

  private async verify(credentials: Parameters<ProviderConnectorFactory['create']>[0]): Promise<void> {
    let connector: ProviderConnector | undefined;
    try {
      connector = await this.connectors.create(credentials);
      await connector.verifyCredentials();
    } catch (error) {
      if (error instanceof ProviderError)
        throw new ValidationError(`Connection check failed: ${error.message}`, { code: error.code });
      throw error;
    } finally {
      await connector?.close();
    }
  }

  private async findOrThrow(teamId: string, id: string): Promise<ConnectionEntity> {
    const row = await this.connections.findVisible(teamId, id);
    if (!row) throw new NotFoundError('Connection');
    return row;
  }
}

/** The credentials' ciphertext is bound to its connection row (also read by key rotation). */
export function credentialsAad(connectionId: string): string {
  return `connection:${connectionId}:credentials`;
}

/**
 * The credential fields of the provider's descriptor that a create or update body holds
 * (Okta: `client_id`, `client_secret`), by name; the DTO has validated each.
 */
function credentialsOf(provider: ProviderKind, body: object): Record<string, string> {
  const values = body as Record<string, unknown>;
  return Object.fromEntries(
    requireProvider(provider)
      .credentials.filter(({ name }) => typeof values[name] === 'string')
      .map(({ name }) => [name, values[name] as string]),
  );
}

/**
 * The create body's org_url, else the provider's default (Entra ID: Microsoft Graph).
 * @throws ValidationError when neither names one
 */
function orgUrlOf(provider: ProviderKind, orgUrl: string | undefined): string {
  const url = orgUrl ?? requireProvider(provider).defaultOrgUrl;
  if (url === undefined)
    throw new ValidationError(`org_url is required for ${provider} connections`, [
      { field: 'org_url', message: 'required' },
    ]);
  return url;
}

/**
 * `credentials` less the fields that `changed` replaces by an alternative (descriptor `oneOf`):
 * a certificate given to a connection that held a secret drops the secret.
 */
function withoutAlternatives(
  provider: ProviderKind,
  credentials: Readonly<Record<string, string>>,
  changed: Readonly<Record<string, string>>,
): Record<string, string> {
  const fields = requireProvider(provider).credentials;
  const replaced = new Set(fields.filter(({ name }) => name in changed).flatMap(({ oneOf }) => oneOf ?? []));
  return Object.fromEntries(
    Object.entries(credentials).filter(
      ([name]) => !fields.some((field) => field.name === name && field.oneOf && replaced.has(field.oneOf)),
    ),
  );
}

/**
 * A body gives at most one field of each group of alternatives (descriptor `oneOf`).
 * @throws ValidationError naming the fields given together
 */
function assertOneOfEach(provider: ProviderKind, credentials: Readonly<Record<string, string>>): void {
  const fields = requireProvider(provider).credentials;
  for (const group of new Set(fields.flatMap(({ oneOf }) => oneOf ?? []))) {
    const given = fields
      .filter(({ name, oneOf }) => oneOf === group && name in credentials)
      .map(({ name }) => name);
    if (given.length > 1)
      throw new ValidationError(
        `${given.join(' and ')} are alternatives: give one of them`,
        given.map((field) => ({ field, message: 'alternatives: give one' })),
      );
  }
}

/**
 * Every credential field of the provider is in the create body (one of each group of
 * alternatives), and none that belongs only to another kind (`tenant_id` on an Okta connection
 * would be silently ignored otherwise).
 * @throws ValidationError naming the fields
 */
function assertCredentialFields(
  provider: ProviderKind,
  body: object,
  credentials: Readonly<Record<string, string>>,
): void {
  assertOneOfEach(provider, credentials);
  const fields = requireProvider(provider).credentials;
  const own = fields.map(({ name }) => name);
  const groups = new Set(fields.flatMap(({ oneOf }) => oneOf ?? []));
  const missing = [
    ...fields.filter(({ name, oneOf }) => !oneOf && !(name in credentials)).map(({ name }) => name),
    ...[...groups]
      .filter((group) => !fields.some(({ name, oneOf }) => oneOf === group && name in credentials))
      .map((group) =>
        fields
          .filter(({ oneOf }) => oneOf === group)
          .map(({ name }) => name)
          .join(' or '),
      ),
  ];
  const foreign = registeredProviders()
    .flatMap(({ credentials }) => credentials)
    .map(({ name }) => name)
    .filter((name, i, all) => all.indexOf(name) === i && !own.includes(name))
    .filter((name) => (body as Record<string, unknown>)[name] !== undefined);
  if (missing.length > 0 || foreign.length > 0)
    throw new ValidationError(
      missing.length > 0
        ? `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required for ${provider} connections`
        : `${foreign.join(', ')} ${foreign.length > 1 ? 'are' : 'is'} not a field of ${provider} connections`,
      [
        ...missing.map((field) => ({ field, message: 'required' })),
        ...foreign.map((field) => ({ field, message: `not a ${provider} field` })),
      ],
    );
}

/**
 * org_url must be an https origin (spec "Connection": https URL). Path, query, fragment and
 * credentials are refused rather than dropped, so nobody is surprised by what gets called.
 * @throws ValidationError
 */
export function normalizeOrgUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ValidationError('org_url must be an absolute https:// URL', [
      { field: 'org_url', message: 'not a URL' },
    ]);
  }
  if (url.protocol !== 'https:') {
    throw new ValidationError('org_url must use https://', [{ field: 'org_url', message: 'https only' }]);
  }
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new ValidationError('org_url must be the tenant origin only, such as https://tenant.example.com', [
      { field: 'org_url', message: 'origin only' },
    ]);
  }
  return url.origin;
}
