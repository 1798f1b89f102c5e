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
 * more RSS (bench:backup, docs/backups.md "Throughput"). V8 reads the flag only from the command
 * line: `v8.setFlagsFromString` cannot resize the young generation later.
 *
 * `--max-old-space-size=256` (MB): without it V8 on a large host lets the old generation fill with
 * a backup's promoted garbage (parsed pages, serialized frames) up to gigabytes before a full
 * collection, and a 100,000-user backup peaked at 398 MB. With it the same backup peaks at about
 * 230 MB, at a cost of about 15 % in speed (bench:backup, docs/backups.md "Memory"). What the
 * service holds at once stays far below it: jobs stream (one frame per part, one index shard).
 *
 * `--heap-growing-percent=50`: the old generation may grow by half of what survived the last full
 * collection before the next one. Under a 256 MB cap V8 lets it grow by much less, and starts
 * marking once it is within the young generation's capacity of that limit: a 100,000-user backup
 * promotes about 400 MB onto a heap that holds about 60 MB, so V8 marked all of it 91 times, three
 * times a second. At 50 % the same backup runs 58 full collections and takes about 10 % less time,
 * for about 10 MB more peak RSS; at 100 % it peaked over 300 MB (docs/backups.md "Marking less
 * often").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=8',
  '--max-old-space-size=256',
  '--heap-growing-percent=50',
];

/**
 * Environment the service runs with, on the same commands (a spec checks them too).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives threads that allocate at once malloc arenas of their own (up to
 * eight per core) and keeps what they grew mapped. The backup's worker thread (okta-page-encoder.ts)
 * allocates the buffers of every page it encodes, which the main thread frees later. With two
 * arenas a 100,000-user backup peaks at 257 MB instead of 275 to 281 MB, at the same speed
 * (bench:backup, docs/backups.md "Memory"). glibc reads it at start-up only.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_ARENA_MAX: '2' });
