import { describe, expect, it } from '@jest/globals';
import { parseCommand, UsageError } from './cli-args.js';

describe('parseCommand', () => {
  it('reads team:create', () => {
    expect(parseCommand(['team:create', '--name', 'Acme', '--owner-email', 'ops@acme.test'])).toEqual({
      command: 'team:create',
      name: 'Acme',
      ownerEmail: 'ops@acme.test',
    });
  });

  it('reads client:create with --flag=value and an optional name', () => {
    expect(parseCommand(['client:create', '--team=t1', '--role=viewer'])).toEqual({
      command: 'client:create',
      teamId: 't1',
      role: 'viewer',
      name: undefined,
    });
    expect(parseCommand(['client:create', '--team', 't1', '--role', 'admin', '--name', 'CI'])).toMatchObject({
      name: 'CI',
    });
  });

  it('reads team:plan', () => {
    expect(parseCommand(['team:plan', '--team', 't1', '--plan', 'team'])).toEqual({
      command: 'team:plan',
      teamId: 't1',
      plan: 'team',
    });
  });

  it.each([
    [[], /No command/],
    [['team:plan', '--team', 't1', '--plan', 'gold'], /Unknown plan "gold"/],
    [['team:plan', '--plan', 'free'], /Missing --team/],
    [['team:delete'], /Unknown command "team:delete"/],
    [['team:create', '--name', 'Acme'], /Missing --owner-email/],
    [['team:create', '--name', 'Acme', '--owner-email', 'a@b.test', '--plan', 'free'], /plan/],
    [['team:create', '--name', 'Acme', '--owner-email', 'a@b.test', 'extra'], /extra/],
    [['client:create', '--team', 't1', '--role', 'root'], /Unknown role "root"/],
    [['client:create', '--team', 't1'], /Missing --role/],
    [['client:create', '--role', 'admin', '--team'], /team/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
