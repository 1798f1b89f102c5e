/** Counts of requests served, keyed like the connectors' stats: `METHOD /path/template`. */
export interface RequestLogSummary {
  total: number;
  byEndpoint: Record<string, number>;
  status429: number;
}

/** Tallies every request the simulator answered (429s and errors included). */
export class RequestLog {
  private total = 0;
  private status429 = 0;
  private readonly byEndpoint = new Map<string, number>();

  record(method: string, template: string, status: number): void {
    this.total++;
    if (status === 429) this.status429++;
    const key = `${method} ${template}`;
    this.byEndpoint.set(key, (this.byEndpoint.get(key) ?? 0) + 1);
  }

  summary(): RequestLogSummary {
    return { total: this.total, byEndpoint: Object.fromEntries(this.byEndpoint), status429: this.status429 };
  }
}
