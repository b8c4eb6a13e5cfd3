import { describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { createTestDatabase } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';
import { runTsx, startMain } from './run-tsx.js';

/** Whether a process with this id runs (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const OWNER_ENV = {
  NAMECARD_OWNER_EMAIL: 'demo@example.com',
  NAMECARD_OWNER_PASSWORD: 'demo-password-1',
};

// Each test starts the real entry point in its own process: slow on a busy machine.
describe('npm run emulator', { timeout: 120_000 }, () => {
  it('reports its URL and the anon key, serves the demo owner, and exits 0 on SIGTERM', async () => {
    const { child, url, output } = await startMain(
      ['--memory', '--port', '0', '--quiet'],
      OWNER_ENV,
    );
    expect(output()).toContain(`anon key: ${LOCAL_ANON_KEY}\n`);
    expect(output()).not.toContain(OWNER_ENV.NAMECARD_OWNER_PASSWORD);

    const supabase = createTestClient(url, LOCAL_ANON_KEY);
    const { error } = await supabase.auth.signInWithPassword({
      email: OWNER_ENV.NAMECARD_OWNER_EMAIL,
      password: OWNER_ENV.NAMECARD_OWNER_PASSWORD,
    });
    expect(error).toBeNull();
    const set = await supabase.rpc('namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: Date.now() + 60_000,
      card: MAIN_CARD,
    });
    expect(set.error).toBeNull();
    expect(set.status).toBe(200);

    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('namecard emulator stopped');
    await expect(fetch(`${url}/auth/v1/settings`)).rejects.toThrow();
  });

  it('exits 0 on SIGINT', async () => {
    const { child } = await startMain(['--memory', '--port', '0', '--quiet']);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('uses the PostgreSQL server named by DATABASE_URL, with the real PostgREST behind /rest/v1 when asked (--rest postgrest), and stops it', async () => {
    const database = await createTestDatabase();
    try {
      const { child, url, output } = await startMain(
        ['--port', '0', '--quiet', '--rest', 'postgrest'],
        {
          DATABASE_URL: database.url,
        },
      );
      expect(output()).toContain('PostgreSQL (DATABASE_URL), /rest/v1 by PostgREST');
      const pid = Number(/PostgREST, process (\d+)/.exec(output())?.[1]);
      expect(alive(pid)).toBe(true);
      const res = await fetch(`${url}/rest/v1/namecard?select=id&apikey=${LOCAL_ANON_KEY}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('server')).toBe('postgrest/12.0.2');
      expect(res.headers.get('content-location')).toBe('/namecard?select=id');
      expect(await res.json()).toEqual([]);

      child.kill('SIGTERM');
      expect((await child).exitCode).toBe(0);
      expect(alive(pid)).toBe(false);
    } finally {
      await database.drop();
    }
  });

  it('exits 2 naming DATABASE_URL when PostgREST is asked for without a PostgreSQL server', async () => {
    for (const [args, env] of [
      [['--memory', '--rest', 'postgrest'], {}],
      [['--memory'], { NAMECARD_REST: 'postgrest' }],
    ] as const) {
      const result = await runTsx('emulator/main.ts', [...args], { env });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('needs DATABASE_URL');
    }
    const bad = await runTsx('emulator/main.ts', ['--memory', '--rest', 'kong']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('`--rest` must be `emulator` or `postgrest`, got `kong`');
  });

  it('exits 2 with a message naming --port for a bad port', async () => {
    const result = await runTsx('emulator/main.ts', ['--memory', '--port', 'eighty']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`--port` must be an integer from 0 to 65535, got `eighty`');
  });

  it('exits 2 with a message naming the variable for a bad sign-in limit', async () => {
    const result = await runTsx('emulator/main.ts', ['--memory'], {
      env: { NAMECARD_RATE_LIMIT_SIGN_IN: 'lots' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      '`NAMECARD_RATE_LIMIT_SIGN_IN` must be a whole number of at least 1, got `lots`',
    );
  });

  it('reads the sign-in limit from the environment: the third sign-in gets 429', async () => {
    const { child, url } = await startMain(['--memory', '--port', '0', '--quiet'], {
      ...OWNER_ENV,
      NAMECARD_RATE_LIMIT_SIGN_IN: '2',
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ email: OWNER_ENV.NAMECARD_OWNER_EMAIL, password: 'wrong' }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });

  it('exits 2 for an unknown flag', async () => {
    const result = await runTsx('emulator/main.ts', ['--memroy']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("Unknown option '--memroy'");
  });

  it('exits 1 and says so when the port is taken', async () => {
    const first = await startMain(['--memory', '--port', '0', '--quiet']);
    const port = new URL(first.url).port;
    const second = await runTsx('emulator/main.ts', ['--memory', '--port', port]);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`port ${port} is already in use`);
    first.child.kill('SIGTERM');
    await first.child;
  });
});
