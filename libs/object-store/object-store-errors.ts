/** No object under the key (or it was deleted meanwhile). */
export class ObjectNotFoundError extends Error {
  override readonly name: string = 'ObjectNotFoundError';

  constructor(readonly key: string) {
    super(`no object under key "${key}"`);
  }
}

/** A key or prefix that could escape the store's root or that a driver cannot hold. */
export class InvalidObjectKeyError extends Error {
  override readonly name: string = 'InvalidObjectKeyError';

  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
  }
}

/**
 * The store could not take or give an object for an operational reason that an operator fixes
 * and a later attempt may not meet: a full or read-only filesystem, S3 answering 5xx after the
 * SDK's own retries. The message names the cause and the key, never credentials.
 */
export class ObjectStoreUnavailableError extends Error {
  override readonly name: string = 'ObjectStoreUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
