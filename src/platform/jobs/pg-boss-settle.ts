import { createRequire } from 'node:module';

type Settle = (this: NodeJS.EventEmitter, ...args: unknown[]) => Promise<unknown>;
interface ManagerPrototype {
  complete: Settle;
  fail: Settle;
}

const PATCHED = Symbol.for('idp-backup.pg-boss-settle');

/**
 * pg-boss 10's worker ends each job with `this.complete(...)` or `this.fail(...)` without awaiting
 * them (src/manager.js, `onFetch`; pg-boss issue #577, fixed in 11, which needs Node 22): when the
 * database is unreachable at that moment, the rejection is unhandled and Node ends the process,
 * API and all. This wraps both so that the failure is emitted as the manager's `error` event
 * (pg-boss forwards it to the PgBoss instance, whose listener logs it) instead. The job then stays
 * active until it expires and pg-boss retries it; the run it carried is settled by our own
 * lifecycle (TrackedRunRunner, the stale sweep). Idempotent; call before creating a PgBoss.
 */
export function reportUnawaitedJobSettleErrors(): void {
  const require = createRequire(import.meta.url);
  const Manager = require('pg-boss/src/manager.js') as { prototype: ManagerPrototype & { [PATCHED]?: true } };
  const prototype = Manager.prototype;
  if (prototype[PATCHED]) return;
  for (const name of ['complete', 'fail'] as const) {
    const original = prototype[name];
    prototype[name] = function (this: NodeJS.EventEmitter, ...args: unknown[]) {
      return original.apply(this, args).catch((error: unknown) => {
        this.emit('error', error);
        return undefined;
      });
    };
  }
  prototype[PATCHED] = true;
}
