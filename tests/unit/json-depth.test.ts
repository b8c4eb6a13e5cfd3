import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../emulator/rest/json-depth.js';

describe('nestsDeeperThan', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('counts arrays and objects, and allows exactly the limit', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(nestsDeeperThan('[{"type":"photo","stamp_end":1}]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(`["${'['.repeat(100)}"]`, 1)).toBe(false);
    expect(nestsDeeperThan(`["a\\"${'{'.repeat(10)}"]`, 1)).toBe(false);
    expect(nestsDeeperThan(`["a\\\\", [[1]]]`, 2)).toBe(true);
  });

  it('finds the 1 MiB nested body of a flood at once', () => {
    const body = `{"type":"photo","pad":${nested(500_000)}}`;
    expect(nestsDeeperThan(body, MAX_JSON_DEPTH)).toBe(true);
  });
});
