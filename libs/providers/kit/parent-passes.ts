/**
 * The references of parent types (group ids whose members to list, an app's id and sign-on
 * mode...) for a collector whose parts may stream at the same time (ProviderConnector.collect).
 * A parent's own part hands its references over when its pass completes, so a child part waiting
 * for them does not list the parent a second time; a parent whose part is not collected is listed
 * on demand, once. Only a complete pass may stand in for the parent's listing: a pass that stops
 * early (an error, a consumer that gave up) fails its waiting children instead of leaving them
 * waiting forever.
 *
 * @typeParam K a resource type; R a reference.
 */
export class ParentPasses<K, R> {
  private readonly refs = new Map<K, Promise<R[]>>();

  /**
   * @param parents types whose references children will need.
   * @param list lists `type` for its references alone, when no pass of it is under way.
   */
  constructor(
    private readonly parents: ReadonlySet<K>,
    private readonly list: (type: K, signal?: AbortSignal) => Promise<R[]>,
  ) {}

  /**
   * The pass `type`'s part is to make, keeping its references; undefined when no child needs
   * them or a pass (or listing) of it is already under way.
   */
  begin(type: K): ParentPass<R> | undefined {
    if (!this.parents.has(type) || this.refs.has(type)) return undefined;
    const pass = new ParentPass<R>();
    this.refs.set(type, pass.promise);
    return pass;
  }

  /**
   * The references of `type`: from its pass (awaited while it streams), else listed now and kept.
   * @throws the pass's failure; the signal's reason when it aborts while waiting
   */
  refsOf(type: K, signal?: AbortSignal): Promise<R[]> {
    let refs = this.refs.get(type);
    if (!refs) {
      refs = this.list(type, signal);
      refs.catch(() => {});
      this.refs.set(type, refs);
    }
    return abortable(refs, signal);
  }
}

/** A parent's part in progress: references kept as records stream, handed over at its end. */
export class ParentPass<R> {
  readonly promise: Promise<R[]>;
  private readonly kept: R[] = [];
  private settle!: { resolve(refs: R[]): void; reject(reason: Error): void };

  constructor() {
    this.promise = new Promise<R[]>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // A pass no child waits for may fail unobserved.
    this.promise.catch(() => {});
  }

  keep(ref: R): void {
    this.kept.push(ref);
  }

  /** The pass went through every page: children get its references. */
  complete(): void {
    this.settle.resolve(this.kept);
  }

  /** The pass stopped before its end (after `complete`, nothing happens). */
  stop(reason: Error): void {
    this.settle.reject(reason);
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
