/**
 * V8 flags the service runs with, on every command that starts it: `npm start`, `npm run
 * start:prod`, the Dockerfile's CMD, and the processes benchmarks and tests start (a spec checks
 * that package.json and the Dockerfile say the same).
 *
 * `--max-semi-space-size=8` (MB): V8's young generation stays at 16 MB instead of growing to 32 MB.
 * A diff or a restore streams hundreds of megabytes through short-lived buffers; with a smaller
 * young generation they are collected sooner (the 1 % diff of two 100,000-user backups peaks at
 * 178 MB with it, 212 MB without, docs/diff.md "Memory"). A backup wants the opposite: a parsed
 * page of 500 app users and what is made of it must die young, and at 4 MB more of it lived across
 * a scavenge and was promoted; at 8 MB a 100,000-user backup takes about 10 % less CPU for 13 MB
 * more RSS (bench:backup, docs/benchmarks/backup.md "Throughput"). V8 reads the flag only from the command
 * line: `v8.setFlagsFromString` cannot resize the young generation later.
 *
 * `--max-old-space-size=256` (MB): without it V8 on a large host lets the old generation fill with
 * a backup's promoted garbage (parsed pages, serialized frames) up to gigabytes before a full
 * collection, and a 100,000-user backup peaked at 398 MB. With it the same backup peaks at about
 * 230 MB, at a cost of about 15 % in speed (bench:backup, docs/backups.md "Memory"). What the
 * service holds at once stays far below it: jobs stream (one frame per part, one index shard).
 *
 * `--heap-growing-percent=75`: the old generation may grow by three quarters of what survived the
 * last full collection before the next one. V8 starts marking once the old generation is within
 * about the young generation's capacity (33 MB here) of that limit. The main heap holds 52 to 56 MB
 * after a full collection, so at 50 % the limit lay only about 30 MB above it and marking began
 * again right after each collection: 42 to 64 full collections in a 100,000-user backup, each
 * marking the whole heap. At 75 % it begins once about 8 MB more has been promoted, and the same
 * backup takes about 10 % less time and CPU. The cost is memory: backups of 100,000 users peak at
 * 264 to 288 MB instead of 256 to 275, a 10,000-user restore at 289 to 309 MB instead of 271 to
 * 296 (and up to 312). At 100 % backups peaked at 282 to 287 MB for no further gain
 * (docs/backups.md "Index entries outside the heap").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=8',
  '--max-old-space-size=256',
  '--heap-growing-percent=75',
];

/**
 * Environment the service runs with, on the same commands (a spec checks them too).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives threads that allocate at once malloc arenas of their own (up to
 * eight per core) and keeps what they grew mapped. The backup's worker thread
 * (libs/providers/kit/page-encoder-pool.ts) allocates the buffers of every page it encodes, which the main thread frees later. With two
 * arenas a 100,000-user backup peaks at 257 MB instead of 275 to 281 MB, at the same speed
 * (bench:backup, docs/backups.md "Memory"). glibc reads it at start-up only.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_ARENA_MAX: '2' });
