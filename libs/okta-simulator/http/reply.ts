/** What a route handler answers: status, serialized JSON body (if any) and extra headers. */
export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string | string[]>;
}

/** A JSON reply; `value` is serialized once, here. */
export function json(status: number, value: unknown, headers?: Reply['headers']): Reply {
  return { status, body: JSON.stringify(value), headers };
}

/** A reply whose body is already JSON text (a page, or a recorded object). */
export function jsonText(status: number, body: string, headers?: Reply['headers']): Reply {
  return { status, body, headers };
}

/** An empty reply (204 No Content, 202 Accepted, or Okta's empty 200 for lifecycle calls). */
export function empty(status = 204): Reply {
  return { status };
}
