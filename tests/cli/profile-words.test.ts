import { beforeEach, describe, expect, it } from 'vitest';
import { emulatorEnv, MAIN_URL, useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';
import { storeVisits } from '../support/visits.js';
import { run } from './helpers.js';

// The owner's words about profiles, as a process against the emulator: a profile is
// named by its label wherever it is shown (`stats`, `cancel`, `end`, `set --every`, the .ics
// file); the server's refusals of a profile change say what exists and what is in the way,
// with the ids and the command that clears it (exit 1; a name the card never had is a typo,
// exit 2, with the name meant), never the database's own sentence; the
// profile list is in columns; a wrong password says where it came from.

const cli = useCliFixture({ signIn: true });
const namecard = (args: string[], env: Record<string, string> = {}, input?: string) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env), input });

const ids = async (table: string, type: string) =>
  (
    await cli.emulator.query<{ id: string }>(
      `select id from public.${table} where type = $1 order by id`,
      [type],
    )
  ).map((row) => Number(row.id));

beforeEach(async () => {
  await cli.emulator.query('delete from public.namecard_series_stop');
  await cli.emulator.query('delete from public.namecard_series');
  await cli.emulator.query('truncate public.namecard_visit');
  await cli.emulator.query('alter table public.namecard_profile disable trigger user');
  await cli.emulator.query(
    `delete from public.namecard_profile where name not in ('main', 'photo')`,
  );
  await cli.emulator.query('alter table public.namecard_profile enable trigger user');
  const add = await namecard([
    'profile',
    'add',
    'shop',
    `${MAIN_URL}shop`,
    '--label',
    'Summer Sale',
  ]);
  expect(add.exitCode).toBe(0);
});

describe('a profile is named by its label wherever it is shown', () => {
  it('stats counts visits by label', async () => {
    const at = Date.now();
    await storeVisits(cli.emulator, [
      { at, type: 'shop', via: 'qr', visits: 4 },
      { at, type: 'main', via: 'link', visits: 1 },
    ]);
    const stats = await namecard(['stats']);
    expect(stats.exitCode).toBe(0);
    expect(stats.stdout).toContain('by profile: Main Profile 1, Photographer 0, Summer Sale 4');
  });

  it('cancel, end and set --every say `shop (Summer Sale)`, on the light path and with CI credentials', async () => {
    expect((await namecard(['set', 'shop', '--for', '1h'])).exitCode).toBe(0);
    const [entry] = await ids('namecard', 'shop');
    // The stored access token: the light path's one request, then the label's read.
    const cancel = await namecard(['cancel', String(entry)]);
    expect(cancel.stderr).toBe('');
    expect(cancel.stdout.split('\n')[0]).toMatch(
      new RegExp(`^✔ Cancelled entry ${entry}: shop \\(Summer Sale\\) until `),
    );

    const ci = { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password };
    expect((await namecard(['set', 'shop', '--for', '1h'], ci)).exitCode).toBe(0);
    const end = await namecard(['end'], ci);
    expect(end.stderr).toBe('');
    const [, second] = await ids('namecard', 'shop');
    expect(end.stdout.split('\n')[0]).toBe(
      `✔ Ended shop (Summer Sale, entry ${second}): visitors go to the main site now`,
    );

    const series = await namecard(['set', 'shop', '--every', 'sat', '10:00-18:00', '--tz', 'UTC']);
    expect(series.stderr).toBe('');
    const [seriesId] = await ids('namecard_series', 'shop');
    expect(series.stdout.split('\n')[0]).toBe(
      `✔ Series ${seriesId}: shop (Summer Sale) every Sat 10:00–18:00 in UTC`,
    );
    const cancelSeries = await namecard(['cancel', String(seriesId)], ci);
    expect(cancelSeries.stdout.split('\n')[0]).toMatch(
      new RegExp(`^✔ Cancelled series ${seriesId}: shop \\(Summer Sale\\) every Sat 10:00–18:00`),
    );
  });

  it('a profile whose label is its name is said once, never `blog (blog)`', async () => {
    expect((await namecard(['profile', 'add', 'blog', `${MAIN_URL}blog`])).exitCode).toBe(0);
    expect((await namecard(['set', 'blog', '--for', '1h'])).exitCode).toBe(0);
    const [entry] = await ids('namecard', 'blog');
    const cancel = await namecard(['cancel', String(entry)]);
    expect(cancel.stdout.split('\n')[0]).toMatch(
      new RegExp(`^✔ Cancelled entry ${entry}: blog until `),
    );
  });

  it('preview names the profile by its label', async () => {
    expect((await namecard(['set', 'shop', '--for', '2h'])).exitCode).toBe(0);
    const [entry] = await ids('namecard', 'shop');
    const at = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    const preview = await namecard(['preview', '--at', at, '--tz', 'UTC']);
    expect(preview.stderr).toBe('');
    expect(preview.stdout).toMatch(
      new RegExp(`^At ${at} UTC: shop \\(Summer Sale\\), entry ${entry}, until `),
    );
  });

  it('the .ics file names each event by its label and name', async () => {
    await namecard(['set', 'shop', '--every', 'sat', '10:00-18:00', '--tz', 'UTC']);
    expect((await namecard(['profile', 'add', 'blog', `${MAIN_URL}blog`])).exitCode).toBe(0);
    await namecard(['set', 'blog', '--for', '1h']);
    const calendar = await namecard(['calendar']);
    expect(calendar.exitCode).toBe(0);
    const summaries = calendar.stdout
      .split('\r\n')
      .filter((line) => line.startsWith('SUMMARY:'))
      .sort();
    expect(summaries).toEqual(['SUMMARY:Summer Sale (shop)', 'SUMMARY:blog']);
  });
});

describe("the server's refusals of a profile change, in the owner's words", () => {
  it('a second `profile add` says what exists and how to change it', async () => {
    const again = await namecard(['profile', 'add', 'shop', `${MAIN_URL}other`]);
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr.split('\n')).toEqual([
      `error: profile \`shop\` exists already: Summer Sale, ${MAIN_URL}shop`,
      'Change it with `namecard profile edit shop --url <url> --label <text>`, or choose another name',
    ]);
  });

  it('`profile edit` and `remove` of a name the card does not have: the name meant and those it has (exit 2, a typo)', async () => {
    for (const args of [
      ['profile', 'edit', 'shpo', '--label', 'Sale'],
      ['profile', 'remove', 'shpo'],
    ]) {
      const result = await namecard(args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split('\n')).toEqual([
        'error: no profile `shpo`; did you mean `shop`?',
        "the card's profiles: main, photo, shop (`namecard profile list`)",
      ]);
    }
  });

  it('a second `profile remove` is refused, saying it was removed and how to bring it back', async () => {
    const first = await namecard(['profile', 'remove', 'shop']);
    expect(first.exitCode).toBe(0);
    const second = await namecard(['profile', 'remove', 'shop']);
    expect(second.exitCode).toBe(1);
    expect(second.stdout).toBe('');
    const today = new Date().toISOString().slice(0, 10);
    expect(second.stderr.split('\n')).toEqual([
      `error: profile \`shop\` was removed already (on ${today})`,
      '`namecard profile add shop <url>` brings it back',
    ]);
    // Editing it says the same: it is not there to change.
    const edit = await namecard(['profile', 'edit', 'shop', '--label', 'Sale']);
    expect(edit.exitCode).toBe(1);
    expect(edit.stderr).toContain('profile `shop` was removed already');
  });

  it('a profile in use names the entries and series in the way and the commands that cancel them', async () => {
    expect((await namecard(['set', 'shop', '--for', '1h'])).exitCode).toBe(0);
    const [entry] = await ids('namecard', 'shop');
    const inUse = await namecard(['profile', 'remove', 'shop']);
    expect(inUse.exitCode).toBe(1);
    expect(inUse.stderr.split('\n')).toEqual([
      `error: profile \`shop\` is in use: entry ${entry} still names it`,
      `Cancel it first (\`namecard cancel ${entry}\`; \`namecard list\` shows them), or wait until it ends; then remove shop`,
    ]);
    expect((await namecard(['cancel', String(entry)])).exitCode).toBe(0);
    await namecard(['set', 'shop', '--every', 'sat', '10:00-18:00', '--tz', 'UTC']);
    const [series] = await ids('namecard_series', 'shop');
    const bySeries = await namecard(['profile', 'remove', 'shop']);
    expect(bySeries.exitCode).toBe(1);
    expect(bySeries.stderr.split('\n')[0]).toBe(
      `error: profile \`shop\` is in use: series ${series} still names it`,
    );
    expect(bySeries.stderr).toContain(`\`namecard cancel ${series}\``);
  });
});

describe('the profile list and the sign-in words', () => {
  it('`profile list` is in aligned columns', async () => {
    const list = await namecard(['profile', 'list']);
    expect(list.exitCode).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines).toEqual([
      `main   Main Profile  ${MAIN_URL} (the build’s setting)`,
      `photo  Photographer  ${MAIN_URL}photo (the build’s setting)`,
      `shop   Summer Sale   ${MAIN_URL}shop`,
    ]);
  });

  it('a wrong password says which source held it: stdin or NAMECARD_PASSWORD', async () => {
    const login = await namecard(
      ['login', '--email', OWNER.email, '--password-stdin'],
      {},
      'not the password\n',
    );
    expect(login.exitCode).toBe(1);
    expect(login.stderr.split('\n')[0]).toBe(
      `error: the password read from stdin (\`--password-stdin\`) was not accepted for ${OWNER.email}: Invalid login credentials`,
    );
    const ci = await namecard(['profile', 'list'], {
      NAMECARD_EMAIL: OWNER.email,
      NAMECARD_PASSWORD: 'not the password',
    });
    expect(ci.exitCode).toBe(1);
    expect(ci.stderr.split('\n')[0]).toBe(
      `error: the password in \`NAMECARD_PASSWORD\` was not accepted for ${OWNER.email}: Invalid login credentials`,
    );
    expect(ci.stderr).toContain('Check `NAMECARD_EMAIL` and `NAMECARD_PASSWORD`');
  });
});
