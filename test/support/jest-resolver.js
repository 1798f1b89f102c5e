import { isBuiltin } from 'node:module';

/** Every successful resolution of this Jest worker process, by directory, specifier and options. */
const resolved = new Map();

/**
 * Jest's default resolver (jest.config.js `resolver`), remembered for the life of the worker
 * process. Jest caches a plain specifier's resolution for the worker, but not one rewritten by
 * `moduleNameMapper` (every `./x.js` import of the sources, mapped to `./x`): those it resolves
 * again, with the file-system walk of the `resolve` package, each time a module is linked, for
 * every test file, which cost a small e2e file seconds of CPU. The sources do not move during a
 * run, so an answer once found stays right; a failure is not remembered (Jest then tries others).
 * Node's built-in modules resolve to themselves, as Jest does when it has no custom resolver.
 * Jest 29 loads a resolver with `require` (Node's require of an ES module): it takes the named `sync`.
 */
export function sync(path, options) {
  if (isBuiltin(path)) return path;
  const key = [options.basedir, path, options.conditions?.join(','), options.extensions?.join(',')].join(
    '\0',
  );
  let result = resolved.get(key);
  if (result === undefined) {
    result = options.defaultResolver(path, options);
    resolved.set(key, result);
  }
  return result;
}
