import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorEnv, login, startEmulator, type Emulator } from './emulator.js';
import { removeDir, run, tempConfigDir } from './helpers.js';

// `namecard token create|list|revoke` and NAMECARD_TOKEN, the built CLI as a process against one
// emulator for the file: the owner makes tokens for a second card; a script with only
// NAMECARD_TOKEN (no config folder, no password) is a member of that card with the token's role,
// and sets, ends and cancels it and reads its status, list, stats, preview and calendar through
// the members' own functions; a run naming another card exits 2 naming both and writes nothing;
// what the token's role does not allow exits 1 naming the role needed and the card; a revoked,
// expired or unknown token exits 1 saying so; the secret is printed once and nowhere after. The
// tests run in order. This file is the one that runs the CLI with a card token.

const TOKEN_FORM = /^nct_[A-Za-z0-9_-]{32}$/;
const HOUR = 3_600_000;

let emulator: Emulator;
let ownerDir: string;
/** A folder that holds the script's config folder, which must never be made. */
let scriptHome: string;
let editorToken: string;
let viewerToken: string;

beforeAll(async () => {
  emulator = await startEmulator();
  ownerDir = await tempConfigDir();
  scriptHome = await tempConfigDir();
  await login(emulator, ownerDir);
  const added = await owner(['card', 'add', 'studio', '--name', 'Studio']);
  if (added.exitCode !== 0) throw new Error(added.stderr);
});

afterAll(async () => {
  await emulator?.stop();
  await removeDir(ownerDir);
  await removeDir(scriptHome);
});

/** `namecard <args>` as the signed-in owner. */
function owner(args: string[], env: Record<string, string> = {}) {
  return run(ownerDir, args, { env: emulatorEnv(emulator, env) });
}

/** The config folder a script's run would use: it must not exist after any run. */
const scriptConfig = () => path.join(scriptHome, 'never-made');

/** `namecard <args>` as a script: NAMECARD_TOKEN only, a config folder that does not exist. */
function script(token: string, args: string[], env: Record<string, string> = {}) {
  return run(scriptConfig(), args, {
    env: emulatorEnv(emulator, { NAMECARD_TOKEN: token, ...env }),
  });
}

/** Everything a run could write: entries and series with their stops, as stored. */
async function writable() {
  return [
    await emulator.query('select * from public.namecard order by id'),
    await emulator.query('select * from public.namecard_series order by id'),
    await emulator.query('select * from public.namecard_series_stop order by series_id'),
  ];
}

/** The entries of a card in the database, oldest first. */
async function entriesOf(slug: string) {
  const rows = (await emulator.query(
    `select n.id, n.type, n.stop_kind from public.namecard as n
     join public.namecard_card as c on c.id = n.card_id where c.slug = $1 order by n.id`,
    [slug],
  )) as { id: number | string; type: string; stop_kind: string | null }[];
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Every file under the owner's config folder, as text: the conf store above all. */
function ownerFiles(): string {
  return readdirSync(ownerDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('namecard token create and list (owners)', () => {
  it('create --json prints { token, name, role, card, expires } once, 90 days by default', async () => {
    const made = await owner(['token', 'create', 'github-actions', '--card', 'studio', '--json']);
    expect(made.stderr).toBe('');
    expect(made.exitCode).toBe(0);
    const answer = JSON.parse(made.stdout) as Record<string, string>;
    expect(Object.keys(answer).sort()).toEqual(['card', 'expires', 'name', 'role', 'token']);
    expect(answer).toMatchObject({ name: 'github-actions', role: 'editor', card: 'studio' });
    expect(answer.token).toMatch(TOKEN_FORM);
    const days = (Date.parse(answer.expires!) - Date.now()) / (24 * HOUR);
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
    editorToken = answer.token!;
  });

  it('create shows a viewer token that never expires once, with what to do with it', async () => {
    const made = await owner([
      'token',
      'create',
      'dashboard',
      '--role',
      'viewer',
      '--expires',
      'never',
      '--card',
      'studio',
    ]);
    expect(made.stderr).toBe('');
    expect(made.exitCode).toBe(0);
    expect(made.stdout).toMatch(/^A viewer token dashboard for the card studio, never expiring:/);
    expect(made.stdout).toContain('It is shown only now');
    viewerToken = /nct_[A-Za-z0-9_-]{32}/.exec(made.stdout)![0];
  });

  it('list shows name, role, creator, expiry and last use, never a secret or hash', async () => {
    const listed = await owner(['token', 'list', '--card', 'studio']);
    expect(listed.exitCode).toBe(0);
    const lines = listed.stdout.split('\n');
    // The owner has two cards: the list names the one it is of.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('Tokens of studio:');
    expect(lines.find((l) => l.startsWith('dashboard'))).toMatch(
      /^dashboard\s+viewer\s+by owner@example\.com\s+created \S+\s+expires never\s+last used never$/,
    );
    const json = await owner(['token', 'list', '--card', 'studio', '--json']);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows.map((r) => r.name).sort()).toEqual(['dashboard', 'github-actions']);
    const hashes = (await emulator.query(
      `select encode(hash, 'hex') as h from private.namecard_token`,
    )) as { h: string }[];
    for (const text of [listed.stdout, json.stdout, ownerFiles()]) {
      expect(text).not.toContain(editorToken);
      expect(text).not.toContain(viewerToken);
      for (const { h } of hashes) expect(text).not.toContain(h);
    }
  });

  it('bad input is refused before anything is sent (exit 2)', async () => {
    for (const args of [
      ['token', 'create', 'bad name'],
      ['token', 'create', 'ci', '--role', 'owner'],
      ['token', 'create', 'ci', '--expires', '20y'],
    ]) {
      const refused = await owner([...args, '--card', 'studio']);
      expect(refused.exitCode, args.join(' ')).toBe(2);
    }
    const count = (await emulator.query(
      'select count(*)::int as n from private.namecard_token',
    )) as {
      n: number;
    }[];
    expect(count[0]!.n).toBe(2);
  });
});

describe('a script with only NAMECARD_TOKEN', () => {
  it("sets, reads, ends and cancels the token's card with no login, no conf and no password", async () => {
    const set = await script(editorToken, ['set', 'photo', '--for', '2h']);
    expect(set.stderr).toBe('');
    expect(set.exitCode).toBe(0);
    expect(await entriesOf('studio')).toEqual([
      { id: expect.any(Number), type: 'photo', stop_kind: null },
    ]);
    expect(await entriesOf('main')).toEqual([]);

    const status = await script(editorToken, ['status', '--json']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ active: { type: 'photo' } });

    const ended = await script(editorToken, ['end']);
    expect(ended.stderr).toBe('');
    expect(ended.exitCode).toBe(0);
    expect((await entriesOf('studio'))[0]!.stop_kind).toBe('ended');

    const later = await script(editorToken, ['set', 'photo', '--for', '1h']);
    expect(later.exitCode, later.stderr).toBe(0);
    const { id } = (await entriesOf('studio')).at(-1)!;
    const cancelled = await script(editorToken, ['cancel', String(id)]);
    expect(cancelled.stderr).toBe('');
    expect(cancelled.exitCode).toBe(0);
    expect((await entriesOf('studio')).at(-1)!.stop_kind).toBe('cancelled');

    // Another zone than this machine's is the program's (commander, supabase-js), not the light
    // path's: the token works there alike.
    const program = await script(editorToken, [
      'set',
      'photo',
      '--for',
      '30m',
      '--tz',
      'Asia/Tokyo',
    ]);
    expect(program.stderr).toBe('');
    expect(program.exitCode).toBe(0);
    expect((await entriesOf('studio')).at(-1)).toMatchObject({ type: 'photo', stop_kind: null });

    for (const out of [set, status, ended, later, cancelled, program]) {
      expect(out.stdout + out.stderr).not.toContain(editorToken);
    }
    expect(existsSync(scriptConfig())).toBe(false);
  });

  it('stores a weekly series; a viewer token reads list, stats, preview and calendar of its card', async () => {
    const series = await script(editorToken, [
      'set',
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'Europe/Berlin',
    ]);
    expect(series.stderr).toBe('');
    expect(series.exitCode).toBe(0);
    expect(
      await emulator.query(
        `select c.slug, s.created_by from public.namecard_series as s
         join public.namecard_card as c on c.id = s.card_id`,
      ),
    ).toEqual([{ slug: 'studio', created_by: null }]);

    const list = await script(viewerToken, ['list', '--json']);
    expect(list.stderr).toBe('');
    expect(list.exitCode).toBe(0);
    const listed = JSON.parse(list.stdout) as { entries: { id: number }[]; series: unknown[] };
    expect(listed.entries.map((e) => e.id)).toEqual(
      (await entriesOf('studio')).map((e) => e.id).reverse(),
    );
    expect(listed.series).toHaveLength(1);

    const stats = await script(viewerToken, ['stats', '--json']);
    expect(stats.stderr).toBe('');
    expect(stats.exitCode).toBe(0);

    const tomorrow = new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10);
    const preview = await script(viewerToken, ['preview', '--at', `${tomorrow} 12:00`, '--json']);
    expect(preview.stderr).toBe('');
    expect(preview.exitCode).toBe(0);

    const calendar = await script(viewerToken, ['calendar']);
    expect(calendar.stderr).toBe('');
    expect(calendar.exitCode).toBe(0);
    expect(calendar.stdout).toContain('RRULE:FREQ=WEEKLY');
    for (const out of [list, stats, preview, calendar])
      expect(out.stdout).not.toContain(viewerToken);
    expect(existsSync(scriptConfig())).toBe(false);
  });

  it("refuses a run naming another card than the token's, by --card, NAMECARD_CARD or `card use`: exit 2 naming both, nothing written", async () => {
    const before = await writable();
    // A config folder whose current card (`namecard card use`) is main.
    const current = path.join(scriptHome, 'current-main');
    mkdirSync(current, { mode: 0o700 });
    writeFileSync(path.join(current, 'config.json'), JSON.stringify({ card: 'main' }));
    const runs = [
      await script(editorToken, ['set', 'photo', '--for', '1h', '--card', 'main']),
      await script(editorToken, [
        'set',
        'photo',
        '--for',
        '1h',
        '--tz',
        'Asia/Tokyo',
        '--card',
        'main',
      ]),
      await script(editorToken, ['end'], { NAMECARD_CARD: 'main' }),
      await script(editorToken, ['cancel', '1'], { NAMECARD_CARD: 'main' }),
      await script(editorToken, [
        'set',
        'photo',
        '--every',
        'sat',
        '10:00-12:00',
        '--card',
        'main',
      ]),
      await run(current, ['set', 'photo', '--for', '1h'], {
        env: emulatorEnv(emulator, { NAMECARD_TOKEN: editorToken }),
      }),
      await script(viewerToken, ['status', '--card', 'main']),
    ];
    for (const [index, refused] of runs.entries()) {
      expect(refused.exitCode, String(index)).toBe(2);
      expect(refused.stdout, String(index)).toBe('');
      expect(refused.stderr, String(index)).toMatch(
        /names the card main, but NAMECARD_TOKEN is a token of the card studio/,
      );
      expect(refused.stderr).not.toContain(editorToken);
    }
    expect(runs[0]!.stderr).toContain('`--card`');
    expect(runs[2]!.stderr).toContain('`NAMECARD_CARD`');
    expect(runs[5]!.stderr).toContain('`card use`');
    expect(await writable()).toEqual(before);
    // Naming the token's own card is no conflict, and the output names it as any named card.
    const own = await script(editorToken, ['status', '--json', '--card', 'studio']);
    expect(own.stderr).toBe('');
    expect(own.exitCode).toBe(0);
    expect(JSON.parse(own.stdout)).toMatchObject({ card: 'studio' });
    expect(existsSync(scriptConfig())).toBe(false);
  });

  it('is refused what only owners or people may do: exit 1 naming the role needed and the card, nothing stored', async () => {
    const before = await writable();
    const tokens = await emulator.query('select count(*)::int as n from private.namecard_token');
    for (const [args, needs] of [
      [['member', 'list'], "the token's role on the card studio does not allow this: needs owner"],
      [['token', 'list'], "the token's role on the card studio does not allow this: needs owner"],
      [
        ['token', 'create', 'more'],
        "the token's role on the card studio does not allow this: needs owner",
      ],
      [
        ['profile', 'add', 'shop', 'https://card.example/shop'],
        "the token's role on the card studio does not allow this: needs owner",
      ],
      [['card', 'add', 'fair'], 'a card token cannot do this: needs a person signed in'],
    ] as const) {
      const refused = await script(editorToken, [...args]);
      expect(refused.exitCode, args.join(' ')).toBe(1);
      expect(refused.stderr, args.join(' ')).toContain(`error: ${needs}`);
      expect(refused.stderr).not.toContain(editorToken);
    }
    expect(await writable()).toEqual(before);
    expect(await emulator.query('select count(*)::int as n from private.namecard_token')).toEqual(
      tokens,
    );
    // Its card list is its one card, with the token's role.
    const cards = await script(editorToken, ['card', 'list', '--json']);
    expect(cards.exitCode).toBe(0);
    expect(JSON.parse(cards.stdout)).toEqual({
      current: 'studio',
      cards: [{ slug: 'studio', name: 'Studio', role: 'editor' }],
    });
    expect(existsSync(scriptConfig())).toBe(false);
  });

  it('a viewer token reads the status and cannot write: exit 1 naming the role needed', async () => {
    const status = await script(viewerToken, ['status']);
    expect(status.exitCode).toBe(0);
    const before = await entriesOf('studio');
    const set = await script(viewerToken, ['set', 'photo', '--for', '1h']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('needs editor');
    const end = await script(viewerToken, ['end']);
    expect(end.exitCode).toBe(1);
    expect(end.stderr).toContain('needs editor');
    const program = await script(viewerToken, [
      'set',
      'photo',
      '--for',
      '1h',
      '--tz',
      'Asia/Tokyo',
    ]);
    expect(program.exitCode).toBe(1);
    expect(program.stderr).toContain('needs editor');
    expect(await entriesOf('studio')).toEqual(before);
  });

  it('with a stored session too, the token wins, and whoami says which identity is used', async () => {
    const who = await owner(['whoami'], { NAMECARD_TOKEN: viewerToken });
    expect(who.exitCode).toBe(0);
    expect(who.stdout).toBe(
      [
        `the viewer token dashboard of the card studio at ${emulator.url} (from NAMECARD_TOKEN, for each run)`,
        'The stored session of owner@example.com is not used while NAMECARD_TOKEN is set.',
        '! This token may not change the card studio: it is a viewer token (needs editor).',
      ].join('\n'),
    );
    const set = await owner(['set', 'photo', '--for', '1h'], { NAMECARD_TOKEN: viewerToken });
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('needs editor');
  });

  it('a malformed token is bad input (exit 2, not echoed); an unknown one exits 1', async () => {
    const malformed = await script('hello-secret-value', ['status']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain('NAMECARD_TOKEN');
    expect(malformed.stderr).not.toContain('hello-secret-value');
    const unknown = `nct_${'Z'.repeat(32)}`;
    const refused = await script(unknown, ['set', 'photo', '--for', '1h'], { NAMECARD_DEBUG: '1' });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('This token is not valid');
    expect(refused.stderr).not.toContain(unknown);
  });

  it('after token revoke the next call exits 1 saying so and what to do', async () => {
    const revoked = await owner(['token', 'revoke', 'github-actions', '--card', 'studio']);
    expect(revoked.stderr).toBe('');
    expect(revoked.exitCode).toBe(0);
    const before = await entriesOf('studio');
    const set = await script(editorToken, ['set', 'photo', '--for', '1h'], { NAMECARD_DEBUG: '1' });
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('The token github-actions was revoked');
    expect(set.stderr).toContain('namecard token create');
    expect(set.stderr).not.toContain(editorToken);
    expect(await entriesOf('studio')).toEqual(before);
  });

  it('an expired token exits 1 saying so', async () => {
    const made = await owner([
      'token',
      'create',
      'short',
      '--expires',
      '1m',
      '--card',
      'studio',
      '--json',
    ]);
    expect(made.exitCode).toBe(0);
    const { token } = JSON.parse(made.stdout) as { token: string };
    expect((await script(token, ['status'])).exitCode).toBe(0);
    // The minute passes: the row's expiry moves, since the database's clock cannot.
    await emulator.query(
      `update private.namecard_token set expires_at = now() - interval '1 second' where name = 'short'`,
    );
    const end = await script(token, ['end']);
    expect(end.exitCode).toBe(1);
    expect(end.stderr).toContain('The token short expired at');
    expect(existsSync(scriptConfig())).toBe(false);
  });
});
