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
