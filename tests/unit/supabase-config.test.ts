import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../emulator/auth/rate-limit.js';
import {
  DEFAULT_ACCESS_TOKEN_LIFETIME,
  DEFAULT_PORT,
  DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL,
} from '../../emulator/index.js';
import { DEFAULT_SUPABASE_URL } from '../../shared/core/config.js';

// supabase/config.toml (what `supabase start` runs) and the emulator must agree, so that the
// same SUPABASE_URL and settings work against either.

/**
 * The `key = value` lines of one `[section]` of the file (values as written). Enough for the
 * flat settings checked here; not a TOML parser (no tables in arrays, no multi-line values).
 */
function section(toml: string, name: string): Map<string, string> {
  const values = new Map<string, string>();
  let current = '';
  for (const raw of toml.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || line === '') continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) current = header[1]!;
    else if (current === name) {
      const [, key = '', value = ''] = /^([\w.]+)\s*=\s*(.*)$/.exec(line) ?? [];
      values.set(key, value);
    }
  }
  return values;
}

describe('supabase/config.toml', () => {
  it("matches the emulator's port, tokens, limits and closed sign-ups", async () => {
    const toml = await readFile(new URL('../../supabase/config.toml', import.meta.url), 'utf8');
    expect(section(toml, '').get('project_id')).toBe('"namecard"');
    expect(section(toml, 'api').get('port')).toBe(String(DEFAULT_PORT));
    expect(new URL(DEFAULT_SUPABASE_URL).port).toBe(String(DEFAULT_PORT));
    const auth = section(toml, 'auth');
    expect(auth.get('jwt_expiry')).toBe(String(DEFAULT_ACCESS_TOKEN_LIFETIME));
    expect(auth.get('refresh_token_reuse_interval')).toBe(
      String(DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL),
    );
    expect(auth.get('enable_signup')).toBe('false');
    expect(section(toml, 'auth.email').get('enable_signup')).toBe('false');
    const limits = section(toml, 'auth.rate_limit');
    expect(limits.get('sign_in_sign_ups')).toBe(String(DEFAULT_RATE_LIMITS.signIn));
    expect(limits.get('token_refresh')).toBe(String(DEFAULT_RATE_LIMITS.tokenRefresh));
  });
});
