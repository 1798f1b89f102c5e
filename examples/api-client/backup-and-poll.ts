/**
 * A short integration written against the typed client that CI generates from the OpenAPI
 * document (`npm run client:check`: openapi-typescript writes generated/api.d.ts, then tsc checks
 * this file against it). It lists a connection's backups, starts one and polls it to the end.
 * Should a route, a field or a status change, this file stops compiling. docs/api.md explains
 * the conventions it follows (bearer token, error shape, rate limits, retries).
 */
import type { components, paths } from './generated/api.js';

type Backup = components['schemas']['Backup'];
type ApiErrorBody = components['schemas']['Error'];
type ListQuery = NonNullable<paths['/api/backup/list']['get']['parameters']['query']>;
type BackupList = paths['/api/backup/list']['get']['responses'][200]['content']['application/json'];
type RunBody = paths['/api/backup/run']['post']['requestBody']['content']['application/json'];
type Started = paths['/api/backup/run']['post']['responses'][202]['content']['application/json'];
type Status = paths['/api/backup/status']['get']['responses'][200]['content']['application/json'];
type Detail = paths['/api/backup/{id}']['get']['responses'][200]['content']['application/json'];

/** A non-2xx answer, with the API's `{ error, code }` body. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${body.code ?? ''}: ${body.error}`);
  }
}

/** The few calls this integration makes, with a client_credentials access token. */
export class BackupApi {
  constructor(
    private readonly baseUrl: string,
    private readonly accessToken: string,
  ) {}

  listBackups(query: ListQuery): Promise<BackupList> {
    const search = new URLSearchParams(
      Object.entries(query).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.join(',') : String(value),
      ]),
    );
    return this.call<BackupList>('GET', `/api/backup/list?${search}`);
  }

  runBackup(body: RunBody): Promise<Started> {
    return this.call<Started>('POST', '/api/backup/run', body);
  }

  status(backupId: string): Promise<Status> {
    return this.call<Status>('GET', `/api/backup/status?backupId=${encodeURIComponent(backupId)}`);
  }

  async backup(id: string): Promise<Backup> {
    return (await this.call<Detail>('GET', `/api/backup/${encodeURIComponent(id)}`)).backup;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.accessToken}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const retryAfter = response.headers.get('Retry-After');
      throw new ApiCallError(
        response.status,
        (await response.json()) as ApiErrorBody,
        retryAfter ? Number(retryAfter) : undefined,
      );
    }
    return (await response.json()) as T;
  }
}

/**
 * Lists the connection's completed backups, starts a new one (waiting out a 409
 * `backup_in_progress` or a 429 as docs/api.md advises) and polls it every `pollMs` until it
 * ends. @returns the finished backup; a failed one carries `error_message`.
 */
export async function backupAndWait(api: BackupApi, connectionId: string, pollMs = 5_000): Promise<Backup> {
  const { backups, total } = await api.listBackups({ connectionId, status: 'completed', limit: 10 });
  console.log(`${total} completed backups; latest: ${backups[0]?.completed_at ?? 'none'}`);

  let started: Started | undefined;
  while (!started) {
    try {
      started = await api.runBackup({ connectionId });
    } catch (error) {
      const waitable =
        error instanceof ApiCallError && (error.status === 429 || error.body.code === 'backup_in_progress');
      if (!waitable) throw error;
      await sleep(((error as ApiCallError).retryAfterSeconds ?? 30) * 1000);
    }
  }

  for (;;) {
    const status = await api.status(started.backupId);
    console.log(`${status.progress_pct}% ${status.progress_message}`);
    if (status.status !== 'running') return api.backup(started.backupId);
    await sleep(pollMs);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
