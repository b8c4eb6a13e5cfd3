import { describe, expect, it } from 'vitest';
import { readLine } from '../../cli/grammar/read-line.js';
import { callerLine, statusLine } from '../../cli/light/light-lines.js';

// Which command lines the entry point runs without commander: as `end`, `cancel <id>`,
// `profile list` or `set` (as a card token, or when the stored access token is valid), and as
// `status`. Anything
// else goes to the program (undefined): commander reads what the grammar does not (help, a
// repeated or unknown option, …) and prints help, suggestions and the usual messages, and a
// line the grammar read but the light path does not take (`set` with something to ask,
// `--every`, `--allow-insecure-http`) runs the program's command from the same reading.

const light = (args: string[]) => callerLine(readLine(args));
const status = (args: string[]) => statusLine(readLine(args))?.options;

describe("the caller's light lines", () => {
  it.each([
    [['end'], { command: 'end', args: {}, options: {} }],
    [['end', '--json'], { command: 'end', args: {}, options: { json: true } }],
    [['--api-url', 'x', 'end'], { command: 'end', args: {}, options: { apiUrl: 'x' } }],
    [['end', '--timeout=500'], { command: 'end', args: {}, options: { timeout: '500' } }],
    [['cancel', '12'], { command: 'cancel', args: { id: '12' }, options: {} }],
    [
      ['cancel', '--json', '12'],
      { command: 'cancel', args: { id: '12' }, options: { json: true } },
    ],
    [['cancel', 'abc'], { command: 'cancel', args: { id: 'abc' }, options: {} }],
    [['end', '--card', 'studio'], { command: 'end', args: {}, options: { card: 'studio' } }],
    [
      ['--card=studio', 'set', 'photo', '--for', '1h'],
      { command: 'set', args: { profile: 'photo' }, options: { card: 'studio', for: '1h' } },
    ],
    [['profile', 'list'], { command: 'profile list', args: {}, options: {} }],
    [
      ['--timeout', '500', 'profile', 'list', '--json'],
      { command: 'profile list', args: {}, options: { timeout: '500', json: true } },
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
    expect(light(args)).toEqual(line);
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
  ])('leaves %j to the program', (args) => {
    expect(light(args)).toBeUndefined();
  });
});

describe('the status light line', () => {
  it.each([
    [['status'], {}],
    [['status', '--json'], { json: true }],
    [['status', '--api-url', 'http://127.0.0.1:1'], { apiUrl: 'http://127.0.0.1:1' }],
    [['status', '--api-url=http://127.0.0.1:1'], { apiUrl: 'http://127.0.0.1:1' }],
    [['--timeout', '500', 'status', '--json'], { timeout: '500', json: true }],
    [['--api-url=x', 'status', '--timeout=0'], { apiUrl: 'x', timeout: '0' }],
    [['status', '--timeout='], { timeout: '' }],
    [['status', '--tz', 'Asia/Tokyo'], { tz: 'Asia/Tokyo' }],
    [['status', '--tz=Asia/Tokyo', '--json'], { tz: 'Asia/Tokyo', json: true }],
    [['status', '--card', 'studio'], { card: 'studio' }],
  ])('runs %j itself', (args, options) => {
    expect(status(args)).toEqual(options);
  });

  it.each([
    [[]],
    [['--version']],
    [['list']],
    [['status', '--help']],
    [['status', '-h']],
    [['help', 'status']],
    [['status', 'now']],
    [['status', 'status']],
    [['status', '--frobnicate']],
    [['status', '--json', '--json']],
    [['--json', 'status']],
    [['status', '--json=yes']],
    [['status', '--timeout']],
    [['status', '--timeout', '--json']],
    [['status', '--timeout', '-1']],
    [['status', '--timeout', '500', '--timeout', '600']],
    [['status', '--', '--json']],
    [['status', '-V']],
    [['--tz', 'Asia/Tokyo', 'status']],
    [['status', '--tz']],
    [['status', '--tz', '--json']],
    [['status', '--tz', 'UTC', '--tz', 'UTC']],
  ])('leaves %j to the program', (args) => {
    expect(status(args)).toBeUndefined();
  });
});
