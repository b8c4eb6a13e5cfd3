import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions } from '../../emulator/index.js';
import { runTsx } from '../emulator/run-tsx.js';
import {
  DB_KINDS,
  TEST_RATE_LIMITS,
  createTestDatabase,
  startTestEmulator,
  type DbKind,
  type TestDatabase,
  overPostgres,
} from '../support/emulator.js';

// GoTrue signs a user out everywhere when the password is set to a new value
// (User.UpdatePassword → Logout deletes the user's sessions, their refresh tokens with
// them), so an old refresh token is "not found". And it refuses to set a password over
// 72 bytes (bcrypt reads no further) with 400 validation_failed "Password cannot be
// longer than 72 characters" instead of cutting it.

const EMAIL = 'owner@password.test';
const FIRST = 'first-password-1';
const SECOND = 'second-password-2';
const TOO_LONG_MESSAGE = 'Password cannot be longer than 72 characters';
const LONG_OWNER = `${'A'.repeat(72)}-secret-tail`;
const NOT_FOUND = {
  code: 'refresh_token_not_found',
  message: 'Invalid Refresh Token: Refresh Token Not Found',
};

async function token(
  url: string,
  apikey: string,
  grant: 'password' | 'refresh_token',
  body: Record<string, string>,
) {
  const res = await fetch(`${url}/auth/v1/token?grant_type=${grant}`, {
    method: 'POST',
    headers: {
      apikey,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.each(DB_KINDS)('password changes over %s', { timeout: 180_000 }, (kind: DbKind) => {
  // One database kept across emulator starts: a PGlite folder or a PostgreSQL database.
  let dir: string;
  let database: TestDatabase | undefined;
  const where = (): Partial<EmulatorOptions> =>
    kind === 'pglite' ? { dataDir: path.join(dir, 'db') } : overPostgres(database!.url);
  const start = (password: string) =>
    startEmulator({
      port: 0,
      rateLimits: TEST_RATE_LIMITS,
      ...where(),
      owner: { email: EMAIL, password },
    });

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'namecard-password-'));
    if (kind === 'postgres') database = await createTestDatabase();
  });
  afterEach(async () => {
    await database?.drop();
    database = undefined;
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  /** Signs in twice (two sessions) and returns both refresh tokens. */
  async function twoSessions(password: string): Promise<string[]> {
    const emulator = await start(password);
    try {
      const tokens: string[] = [];
      for (let i = 0; i < 2; i++) {
        const signIn = await token(emulator.url, emulator.anonKey, 'password', {
          email: EMAIL,
          password,
        });
        expect(signIn.status).toBe(200);
        tokens.push(signIn.body.refresh_token as string);
      }
      return tokens;
    } finally {
      await emulator.stop();
    }
  }

  it('a restart with a new NAMECARD owner password revokes every earlier refresh token; the same password keeps them', async () => {
    const [kept] = await twoSessions(FIRST);
    // The same password again is no change: sessions survive a plain restart.
    const same = await start(FIRST);
    let survivor: string;
    try {
      const refreshed = await token(same.url, same.anonKey, 'refresh_token', {
        refresh_token: kept!,
      });
      expect(refreshed.status).toBe(200);
      survivor = refreshed.body.refresh_token as string;
    } finally {
      await same.stop();
    }
    const [, other] = await twoSessions(FIRST);

    const changed = await start(SECOND);
    try {
      for (const old of [survivor, other!]) {
        const refresh = await token(changed.url, changed.anonKey, 'refresh_token', {
          refresh_token: old,
        });
        expect(refresh).toEqual({ status: 400, body: NOT_FOUND });
      }
      const sessions = await changed.query<{ n: number }>(
        `select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id
         where u.email = $1`,
        [EMAIL],
      );
      expect(sessions).toEqual([{ n: 0 }]);
      const signIn = await token(changed.url, changed.anonKey, 'password', {
        email: EMAIL,
        password: SECOND,
      });
      expect(signIn.status).toBe(200);
    } finally {
      await changed.stop();
    }
  });

  it('`emulator:admin set-password` revokes every earlier refresh token of that user only', async () => {
    const [old] = await twoSessions(FIRST);
    const emulator = await start(FIRST);
    try {
      await emulator.createUser('bystander@password.test', 'bystander-pw-1');
      const bystander = await token(emulator.url, emulator.anonKey, 'password', {
        email: 'bystander@password.test',
        password: 'bystander-pw-1',
      });
      expect(bystander.status).toBe(200);
      // PGlite's folder is opened by one process at a time: the admin runs in between.
      await emulator.stop();
      const admin = await runTsx(
        'emulator/admin.ts',
        ['set-password', EMAIL, '--password-stdin', '--data-dir', path.join(dir, 'db')],
        { env: { DATABASE_URL: database?.url }, input: `${SECOND}\n` },
      );
      expect(admin.stderr).toBe('');
      expect(admin.exitCode).toBe(0);
      expect(admin.stdout).toMatch(
        /^set the password of owner@password\.test \([0-9a-f-]{36}\); every earlier session was signed out$/,
      );
      expect(admin.stdout).not.toContain(SECOND);

      const after = await startEmulator({ port: 0, rateLimits: TEST_RATE_LIMITS, ...where() });
      try {
        const refresh = await token(after.url, after.anonKey, 'refresh_token', {
          refresh_token: old!,
        });
        expect(refresh).toEqual({ status: 400, body: NOT_FOUND });
        const others = await token(after.url, after.anonKey, 'refresh_token', {
          refresh_token: bystander.body.refresh_token as string,
        });
        expect(others.status).toBe(200);
        expect(
          (await token(after.url, after.anonKey, 'password', { email: EMAIL, password: SECOND }))
            .status,
        ).toBe(200);
      } finally {
        await after.stop();
      }
    } finally {
      await emulator.stop();
    }
  });

  it('refuses to start with an owner password over 72 bytes, with GoTrue message, and creates no user', async () => {
    await expect(start(LONG_OWNER)).rejects.toThrow(TOO_LONG_MESSAGE);
    // 37 × "é" is 37 characters but 74 bytes: bcrypt counts bytes.
    await expect(start('é'.repeat(37))).rejects.toThrow(TOO_LONG_MESSAGE);
    const emulator = await startEmulator({ port: 0, rateLimits: TEST_RATE_LIMITS, ...where() });
    try {
      expect(await emulator.query('select id from auth.users')).toEqual([]);
    } finally {
      await emulator.stop();
    }
  });
});

describe.each(DB_KINDS)('passwords over 72 bytes over %s', { timeout: 60_000 }, (kind) => {
  it('are refused when a user is created, so a password differing after byte 72 never signs in', async () => {
    const emulator = await startTestEmulator(kind);
    try {
      await expect(emulator.createUser(EMAIL, LONG_OWNER)).rejects.toThrow(TOO_LONG_MESSAGE);
      // 72 bytes exactly is still allowed.
      await emulator.createUser('exact@password.test', 'A'.repeat(72));
      const signIn = await token(emulator.url, emulator.anonKey, 'password', {
        email: EMAIL,
        password: `${'A'.repeat(72)}-anything`,
      });
      expect(signIn.status).toBe(400);
      expect(signIn.body).toMatchObject({ code: 'invalid_credentials' });
      expect(
        await emulator.query<{ email: string }>('select email from auth.users order by email'),
      ).toEqual([{ email: 'exact@password.test' }]);
    } finally {
      await emulator.stop();
    }
  });
});

describe('the entry points refuse a password over 72 bytes', { timeout: 120_000 }, () => {
  it('`npm run emulator` with a long NAMECARD_OWNER_PASSWORD exits 2 naming the variable', async () => {
    const result = await runTsx('emulator/main.ts', ['--memory', '--port', '0', '--quiet'], {
      env: {
        DATABASE_URL: undefined,
        NAMECARD_OWNER_EMAIL: EMAIL,
        NAMECARD_OWNER_PASSWORD: LONG_OWNER,
      },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`\`NAMECARD_OWNER_PASSWORD\`: ${TOO_LONG_MESSAGE}`);
    expect(result.stdout + result.stderr).not.toContain(LONG_OWNER);
  });

  it('`emulator:admin add-user` and `set-password` exit 2 with the message and store nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'namecard-password-admin-'));
    try {
      const admin = (args: string[], input?: string) =>
        runTsx('emulator/admin.ts', [...args, '--data-dir', path.join(dir, 'db')], {
          env: { DATABASE_URL: undefined },
          ...(input !== undefined ? { input } : {}),
        });
      const added = await admin(['add-user', EMAIL, '--password-stdin'], `${LONG_OWNER}\n`);
      expect(added.exitCode).toBe(2);
      expect(added.stderr).toContain(TOO_LONG_MESSAGE);
      expect((await admin(['add-user', EMAIL, '--password-stdin'], FIRST)).exitCode).toBe(0);
      const set = await admin(['set-password', EMAIL, '--password-stdin'], LONG_OWNER);
      expect(set.exitCode).toBe(2);
      expect(set.stderr).toContain(TOO_LONG_MESSAGE);

      const emulator = await startEmulator({ port: 0, dataDir: path.join(dir, 'db') });
      try {
        const signIn = await token(emulator.url, emulator.anonKey, 'password', {
          email: EMAIL,
          password: FIRST,
        });
        expect(signIn.status).toBe(200);
      } finally {
        await emulator.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
