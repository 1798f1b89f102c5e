import { backoffMs } from '@libs/providers/kit/rate-limit-governor.js';

/**
 * How a restore waits for Graph to replicate the objects it created before the writes that name
 * them (GraphApiClient.waitingForReplication): Graph answers a write naming an object created a
 * moment ago 404, or 400 `Request_BadRequest` "...does not exist or one of its queried
 * reference-property objects are not present" / "Not a valid reference update", for seconds to
 * minutes ("This request might have replication delays for users that were recently created",
 * learn.microsoft.com/graph/api/user-list; msgraph-bicep-types#193: "~5 min isn't enough";
 * Azure CLI waits up to 3 minutes, azure-cli#2243).
 */
export interface ReplicationWait {
  /** the longest one write (or read back) waits in all, ms */
  maxWaitMs: number;
  /** whether the text of a write (its path parameters and body) names an object created lately */
  namesFresh(text: string): boolean;
  /** told each pause, ms, so the item's result can say how long it waited */
  waited(ms: number): void;
  /** told the ids of each object a write created (`id`, an application's `appId`), at once */
  created(ids: string[]): void;
}

/** The default wait: five minutes, past the worst lag reported (msgraph-bicep-types#193). */
export const DEFAULT_REPLICATION_WAIT_MS = 300_000;

/**
 * First pause of the wait, ms; doubles up to a cap: 2 s between reads back of a new object (a
 * read costs one resource unit with `$select` and no write quota, so an object is seen at most
 * 2 s after Graph has it), 5 s between sends of a refused write (each counts against the write
 * quota of 3,000 per 2 min 30 s, "Identity and access service limits").
 */
const REPLICATION_PAUSE_BASE_MS = 250;
export const READ_BACK_PAUSE_CAP_MS = 2_000;
export const WRITE_RETRY_PAUSE_CAP_MS = 5_000;

/** What Graph answers about an object it has not replicated yet (see ReplicationWait). */
const REFERENCE_MESSAGE =
  /does not exist or one of its queried reference-property objects are not present|not a valid reference update/i;

/**
 * Whether Graph's answer says an object named is not there (yet): 404, or 400
 * `Request_BadRequest` with one of the reference messages.
 * @param body the answer's text (Graph's error envelope)
 */
export function isReferenceError(status: number, body: string): boolean {
  if (status === 404) return true;
  return status === 400 && body.includes('Request_BadRequest') && REFERENCE_MESSAGE.test(body);
}

/**
 * The pause before attempt `attempt + 1` (ms, with jitter), no longer than what is left of the
 * wait; 0 when nothing is left.
 * @param waitedMs what the write has waited so far
 * @param capMs the longest pause, READ_BACK_PAUSE_CAP_MS or WRITE_RETRY_PAUSE_CAP_MS
 */
export function replicationPauseMs(
  wait: ReplicationWait,
  attempt: number,
  waitedMs: number,
  capMs: number,
): number {
  const left = wait.maxWaitMs - waitedMs;
  if (left <= 0) return 0;
  return Math.min(left, backoffMs(attempt, REPLICATION_PAUSE_BASE_MS, capMs, Math.random()));
}
