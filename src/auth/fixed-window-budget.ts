/** Past this many keys, ended windows are dropped on the next call: memory stays bounded by recent clients. */
const SWEEP_ABOVE = 10_000;

/**
 * A request budget per key (a client IP) in fixed windows, in this process's memory: small and
 * self-contained for the authorization server's own endpoints, which the API's limiter
 * (src/common/rate-limit) does not see because oidc-provider serves them outside Nest's routing.
 * Per replica: N replicas allow N times the budget, which is enough to stop a flood.
 */
export class FixedWindowBudget {
  private readonly windows = new Map<string, { used: number; endsAt: number }>();

  /**
   * @param limit requests allowed per window and key.
   * @param windowMs window length, ms.
   */
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Spends one request of `key`'s budget.
   * @param now epoch ms.
   * @returns 0 when allowed; else the seconds until the window ends (for `Retry-After`).
   */
  take(key: string, now = Date.now()): number {
    if (this.windows.size > SWEEP_ABOVE) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { used: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (window.used >= this.limit) return Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    window.used += 1;
    return 0;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
