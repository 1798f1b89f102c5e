import { InvalidObjectKeyError } from './object-store-errors.js';

/** S3's limit on a key (Amazon S3 User Guide, "Naming objects"), applied to every driver alike. */
const MAX_KEY_BYTES = 1024;
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Validates an object key: 1 to 1024 UTF-8 bytes, `/`-separated, relative (no leading `/`),
 * no backslash or control character, no empty segment, and no segment starting with `.`. The last
 * rule rejects `.` and `..` (path traversal in the filesystem driver) and keeps dot-names free
 * for a driver's own use (the filesystem driver stages writes in `.staging/`). The same rules hold
 * for every driver so that a key valid on one is valid on all.
 * @throws InvalidObjectKeyError naming the rule broken
 */
export function assertObjectKey(key: string): void {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new InvalidObjectKeyError(key, problem);
}

/** True when `key` passes {@link assertObjectKey}. */
export function isObjectKey(key: string): boolean {
  return keyProblem(key) === undefined;
}

/**
 * Validates a listing prefix: `''`, or a string that some valid key could start with (for example
 * `teams/`, `teams/t1/backups/b` ; not `../`, `/x`, `a//`).
 * @throws InvalidObjectKeyError
 */
export function assertObjectPrefix(prefix: string): void {
  // A prefix is valid when completing its last (possibly empty) segment gives a valid key.
  const problem = prefix === '' ? undefined : keyProblem(`${prefix}x`);
  if (problem !== undefined) throw new InvalidObjectKeyError(prefix, problem);
}

function keyProblem(key: string): string | undefined {
  if (key === '') return 'empty';
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  if (key.includes('\\')) return 'contains a backslash';
  if (CONTROL_CHARACTERS.test(key)) return 'contains a control character';
  if (key.startsWith('/')) return 'absolute path (keys are relative)';
  const segments = key.split('/');
  if (segments.includes('..')) return 'contains a ".." segment (path traversal)';
  if (segments.includes('')) return 'contains an empty segment';
  if (segments.some((segment) => segment.startsWith('.'))) return 'a segment starts with "." (reserved)';
  return undefined;
}
