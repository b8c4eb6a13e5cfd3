import { describe, expect, it } from 'vitest';
import { ownerArgs } from '../../cli/owner-args.js';

// Which command lines the entry point runs as `end`, `cancel <id>` or `profile list` without
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
  ])('runs %j itself', (args, line) => {
    expect(ownerArgs(args)).toEqual(line);
  });

  it.each([
    [[]],
    [['status']],
    [['set', 'photo', '--for', '1h']],
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
