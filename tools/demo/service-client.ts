/** Status fields of GET /api/backup/status. */
export interface BackupStatusView {
  status: 'running' | 'completed' | 'failed';
  progress_pct: number;
  progress_message: string;
  error_message?: string;
}

/**
 * A minimal client of the service's public API, as an integration would write one: a
 * client_credentials token for the API resource (RFC 8707), then JSON over bearer auth.
 */
export class ServiceClient {
  private token = '';

  private constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  /** @throws Error with the token endpoint's answer when the client is refused. */
  static async connect(baseUrl: string, clientId: string, clientSecret: string): Promise<ServiceClient> {
    const client = new ServiceClient(baseUrl, clientId, clientSecret);
    await client.refreshToken();
    return client;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  /** Polls GET /api/backup/status until the backup leaves `running`, reporting each new progress line. */
  waitForBackup(
    backupId: string,
    onProgress: (pct: number, message: string) => void,
    timeoutMs = 3_600_000,
  ): Promise<BackupStatusView> {
    return this.poll<BackupStatusView>(
      `/api/backup/status?backupId=${backupId}`,
      (status) => status.status !== 'running',
      (status) => [status.progress_pct, status.progress_message],
      onProgress,
      timeoutMs,
    );
  }

  /**
   * GETs `path` every 200 ms until `done` says so, reporting each new progress line.
   * @returns the last answer
   * @throws Error when `timeoutMs` passes first
   */
  async poll<T>(
    path: string,
    done: (view: T) => boolean,
    progress: (view: T) => [number, string],
    onProgress: (pct: number, message: string) => void,
    timeoutMs: number,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      const view = await this.get<T>(path);
      const [pct, message] = progress(view);
      if (`${pct}|${message}` !== last) onProgress(pct, message);
      last = `${pct}|${message}`;
      if (done(view)) return view;
      if (Date.now() > deadline) throw new Error(`${path} not done after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Access tokens are short-lived: a 401 gets one new token and one retry. */
  private async call<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        Accept: 'application/json',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 401 && !retried) {
      await this.refreshToken();
      return this.call<T>(method, path, body, true);
    }
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** client_secret_basic: id and secret form-urlencoded before base64 (RFC 6749 §2.3.1). */
  private async refreshToken(): Promise<void> {
    const basic = Buffer.from(
      `${encodeURIComponent(this.clientId)}:${encodeURIComponent(this.clientSecret)}`,
    );
    const response = await fetch(`${this.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic.toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: `${this.baseUrl}/api/` }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token) {
      throw new Error(`Token request failed: ${response.status} ${JSON.stringify(body)}`);
    }
    this.token = body.access_token;
  }
}
