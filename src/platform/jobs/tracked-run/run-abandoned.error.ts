/** The run left `running` under this worker (the stale sweep failed it): stop, clean up, do not retry. */
export class RunAbandonedError extends Error {
  override readonly name = 'RunAbandonedError';
}
