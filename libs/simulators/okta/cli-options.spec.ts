import { describe, expect, it } from '@jest/globals';

import { CliUsageError, parseCliOptions } from './cli-options.js';

describe('parseCliOptions', () => {
  it('maps flags to simulator options', () => {
    expect(
      parseCliOptions(['--port', '8443', '--users', '1000', '--seed', '7', '--rate-limits', 'enterprise']),
    ).toMatchObject({ port: 8443, users: 1000, seed: 7, rateLimits: 'enterprise' });
  });

  it.each([
    [['--colour', 'red'], /Unknown option '--colour'/],
    [['--users', 'many'], /--users must be a non-negative integer/],
    [['--rate-limits', 'team'], /--rate-limits must be none or enterprise/],
    [['extra'], /positional/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliOptions(argv)).toThrow(CliUsageError);
    expect(() => parseCliOptions(argv)).toThrow(message);
  });
});
