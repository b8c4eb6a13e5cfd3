import { describe, expect, it } from 'vitest';
import { statusArgs } from '../../cli/light/status-args.js';

// Which command lines the entry point runs as `status` without commander. Anything it is not
// sure about must go to commander (undefined), which prints help and the usual messages.

describe('statusArgs', () => {
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
  ])('runs %j itself', (args, options) => {
    expect(statusArgs(args)).toEqual(options);
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
  ])('leaves %j to commander', (args) => {
    expect(statusArgs(args)).toBeUndefined();
  });
});
