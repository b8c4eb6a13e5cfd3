import { describe, expect, it } from 'vitest';
import { ownerArgs } from '../../cli/light/owner-args.js';

// Which command lines the entry point runs as `end`, `cancel <id>`, `profile list` or `set` without
// commander (when the stored access token is valid). Anything it is not sure about must go to
// commander (undefined), which prints help, suggestions and the usual messages.

describe('ownerArgs', () => {
  it.each([
    [['end'], { command: 'end', options: {} }],
    [['end', '--json'], { command: 'end', options: { json: true } }],
    [['--api-url', 'x', 'end'], { command: 'end', options: { apiUrl: 'x' } }],
    [['end', '--timeout=500'], { command: 'end', options: { timeout: '500' } }],
    [['cancel', '12'], { command: 'cancel', id: '12', options: {} }],
    [['cancel', '--json', '12'], { command: 'cancel', id: '12', options: { json: true } }],
    [['cancel', 'abc'], { command: 'cancel', id: 'abc', options: {} }],
    [['profile', 'list'], { command: 'profile list', options: {} }],
    [
      ['--timeout', '500', 'profile', 'list', '--json'],
      { command: 'profile list', options: { timeout: '500', json: true } },
    ],
    [
      ['set', 'photo', '--for', '1h'],
      { command: 'set', args: { profile: 'photo' }, options: { for: '1h' } },
    ],
    [
      ['set', 'photo', '2030-06-01', '18:00', '--json'],
      {
        command: 'set',
        args: { profile: 'photo', date: '2030-06-01', time: '18:00' },
        options: { json: true },
      },
    ],
    [
      ['--timeout', '500', 'set', '--from=2030-06-01 09:00', 'main', '2030-06-01', '18:00'],
      {
        command: 'set',
        args: { profile: 'main', date: '2030-06-01', time: '18:00' },
        options: { timeout: '500', from: '2030-06-01 09:00' },
      },
    ],
    [
      ['set', 'photo', '2030-06-01', '18:00', '--tz', 'UTC'],
      {
        command: 'set',
        args: { profile: 'photo', date: '2030-06-01', time: '18:00' },
        options: { tz: 'UTC' },
      },
    ],
  ])('runs %j itself', (args, line) => {
    expect(ownerArgs(args)).toEqual(line);
  });

  it.each([
    [[]],
    [['status']],
    [['set']],
    [['set', 'photo']],
    [['set', 'photo', '2030-06-01']],
    [['set', 'photo', '2030-06-01', '18:00', 'extra']],
    [['set', 'photo', '2030-06-01', '--for', '1h']],
    [['set', 'photo', '--every', 'sat', '10:00-18:00']],
    [['set', 'photo', '2030-06-01', '18:00', '--until', '2030-07-01']],
    [['set', 'photo', '--for', '1h', '--for', '2h']],
    [['set', 'photo', '--for', '-1h']],
    [['set', 'photo', '--for']],
    [['--tz', 'UTC', 'set', 'photo', '2030-06-01', '18:00']],
    [['end', '--for', '1h']],
    [['set', 'photo', '2030-06-01', '18:00', '--help']],
    [['end', '--help']],
    [['end', '-h']],
    [['help', 'end']],
    [['end', 'now']],
    [['end', 'end']],
    [['--json', 'end']],
    [['end', '--json', '--json']],
    [['end', '--json=yes']],
    [['end', '--allow-insecure-http']],
    [['end', '--timeout']],
    [['end', '--timeout', '-1']],
    [['end', '--timeout', '1', '--timeout', '2']],
    [['end', '--', '--json']],
    [['cancel']],
    [['cancel', '--json']],
    [['cancel', '12', '13']],
    [['cancel', '-12']],
    [['cancel', '--', '12']],
    [['cancle', '12']],
    [['profile']],
    [['profile', '--json', 'list']],
    [['profile', 'lsit']],
    [['profile', 'list', 'all']],
    [['profile', 'add', 'shop', 'https://card.example/shop']],
    [['list', 'profile']],
  ])('leaves %j to commander', (args) => {
    expect(ownerArgs(args)).toBeUndefined();
  });
});
