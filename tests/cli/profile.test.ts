import { beforeEach, describe, expect, it } from 'vitest';
import { emulatorEnv, MAIN_URL, useCliFixture } from './emulator.js';
import { run } from './helpers.js';

// `namecard profile …` and `set` with a profile the owner added, as a process against the
// emulator: what is stored, what is refused (exit 2 for the command line, nothing stored; exit 1
// for the server's refusals), and what the owner is told.

const cli = useCliFixture({ signIn: true });
const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

const profiles = async () =>
  (
    await cli.emulator.query<{ name: string; label: string; url: string | null; removed: boolean }>(
      `select name, label, url, removed_at is not null as removed
       from public.namecard_profile order by name`,
    )
  ).map((row) => ({ ...row }));
const entries = () =>
  cli.emulator.query<{ type: string }>('select type from public.namecard order by id');

const BUILT_IN = [
  { name: 'main', label: 'Main Profile', url: null, removed: false },
  { name: 'photo', label: 'Photographer', url: null, removed: false },
];

beforeEach(async () => {
  await cli.emulator.query('alter table public.namecard_profile disable trigger user');
  await cli.emulator.query(
    `delete from public.namecard_profile where name not in ('main', 'photo')`,
  );
  await cli.emulator.query('alter table public.namecard_profile enable trigger user');
});

describe('namecard profile', () => {
  it('adds, lists, edits and removes a profile, reporting what the server stored', async () => {
    const add = await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`, '--label', 'Shop']);
    expect(add.stderr).toBe('');
    expect(add.exitCode).toBe(0);
    expect(add.stdout).toBe(`✔ Added shop  Shop  ${MAIN_URL}shop`);

    const list = await namecard(['profile', 'list', '--json']);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'main', label: 'Main Profile', url: MAIN_URL, own_url: null, state: null },
      { name: 'photo', label: 'Photographer', url: `${MAIN_URL}photo`, own_url: null, state: null },
      {
        name: 'shop',
        label: 'Shop',
        url: `${MAIN_URL}shop`,
        own_url: `${MAIN_URL}shop`,
        state: null,
      },
    ]);

    const edit = await namecard(['profile', 'edit', 'shop', '--url', `${MAIN_URL}sale`]);
    expect(edit.exitCode).toBe(0);
    expect(edit.stdout).toBe(`✔ Changed shop  Shop  ${MAIN_URL}sale`);

    const remove = await namecard(['profile', 'remove', 'shop']);
    expect(remove.exitCode).toBe(0);
    expect(remove.stdout).toBe(
      '✔ Removed shop (Shop): no new entry can name it; past entries keep it',
    );
    expect(await profiles()).toEqual([
      ...BUILT_IN,
      { name: 'shop', label: 'Shop', url: `${MAIN_URL}sale`, removed: true },
    ]);
    // A removed profile can be added again.
    expect((await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`])).exitCode).toBe(0);
    expect((await profiles())[2]).toEqual({
      name: 'shop',
      label: 'shop',
      url: `${MAIN_URL}shop`,
      removed: false,
    });
  });

  it.each([
    [
      ['profile', 'add', 'Shop', `${MAIN_URL}shop`],
      '`name` must be a name of lowercase letters, digits and -, starting with a letter, at most 32 characters (e.g. shop), got `Shop`',
    ],
    [
      ['profile', 'add', 'shop', 'ftp://card.example/'],
      '`url` must be an absolute https: or http: URL with no user or password, at most 2,048 characters (e.g. https://me.example/shop), got `ftp://card.example/`',
    ],
    [
      ['profile', 'add', 'shop', 'https://user:pw@card.example/'],
      '`url` must be an absolute https: or http: URL',
    ],
    [
      ['profile', 'add', 'shop', 'https://elsewhere.example/shop'],
      "`url` must be on an origin the card's /go follows (https://card.example), got `https://elsewhere.example/shop`: add https://elsewhere.example to NAMECARD_ALLOWED_ORIGINS and rebuild the site first",
    ],
    [
      ['profile', 'add', 'shop', `${MAIN_URL}shop`, '--label', 'x'.repeat(61)],
      '`--label` must be 1 to 60 characters with no space around them',
    ],
    [
      ['profile', 'edit', 'photo', '--url', 'https://elsewhere.example/'],
      "`--url` must be on an origin the card's /go follows (https://card.example)",
    ],
    [['profile', 'edit', 'photo'], 'give `--url <url>` or `--label <text>` (or both)'],
  ])('%j exits 2 naming the field, and stores nothing', async (args, message) => {
    const result = await namecard(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(`error: ${message}`);
    expect(await profiles()).toEqual(BUILT_IN);
  });

  // The name meant on the first line (when one is near), the card's profiles on the next: one
  // refusal that says both (the grammar's suggestion, and what exists).
  const PROFILES_THERE = "the card's profiles: main, blog, photo (`namecard profile list`)";
  it.each([
    [['profile', 'edit', 'blgo', '--label', 'Blog'], 'no profile `blgo`; did you mean `blog`?'],
    [['profile', 'remove', 'blgo'], 'no profile `blgo`; did you mean `blog`?'],
    [['profile', 'remove', 'video'], 'no profile `video`'],
  ])(
    "%j names the card's profile meant, from the server's list (exit 2)",
    async (args, message) => {
      await namecard(['profile', 'add', 'blog', `${MAIN_URL}blog`]);
      const result = await namecard(args);
      expect(result.stderr.split('\n')).toEqual([`error: ${message}`, PROFILES_THERE]);
      expect(result.exitCode).toBe(2);
      expect(await profiles()).toEqual([
        { name: 'blog', label: 'blog', url: `${MAIN_URL}blog`, removed: false },
        ...BUILT_IN,
      ]);
    },
  );

  it('allows a destination on an origin NAMECARD_ALLOWED_ORIGINS adds', async () => {
    const env = { NAMECARD_ALLOWED_ORIGINS: 'https://shop.example' };
    const add = await namecard(['profile', 'add', 'shop', 'https://shop.example/'], env);
    expect(add.exitCode).toBe(0);
    expect((await profiles()).map((p) => p.name)).toEqual(['main', 'photo', 'shop']);
  });

  it("the server's refusals exit 1 in its words: in use, main, and a name taken", async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`]);
    expect((await namecard(['set', 'shop', '--for', '1h'])).exitCode).toBe(0);
    const [row] = await cli.emulator.query<{ id: number }>('select id from public.namecard');
    const id = row!.id;
    const inUse = await namecard(['profile', 'remove', 'shop']);
    expect(inUse.exitCode).toBe(1);
    // The entry in the way and the command that clears it.
    expect(inUse.stderr).toContain(`profile \`shop\` is in use: entry ${id} still names it`);
    expect(inUse.stderr).toContain(`\`namecard cancel ${id}\``);
    const main = await namecard(['profile', 'remove', 'main']);
    expect(main.exitCode).toBe(1);
    expect(main.stderr).toContain('the main profile cannot be removed');
    const taken = await namecard(['profile', 'add', 'shop', `${MAIN_URL}other`]);
    expect(taken.exitCode).toBe(1);
    expect((await profiles()).find((p) => p.name === 'shop')).toMatchObject({
      url: `${MAIN_URL}shop`,
      removed: false,
    });
  });

  it('lists which profile is in force and which is scheduled', async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`, '--label', 'Shop']);
    await namecard(['set', 'shop', '--for', '1h']);
    const later = new Date(Date.now() + 3 * 3_600_000);
    const until = new Date(Date.now() + 4 * 3_600_000);
    const wall = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
    await namecard([
      'set',
      'photo',
      ...wall(until).split(' '),
      '--from',
      wall(later),
      '--tz',
      'UTC',
    ]);
    const list = await namecard(['profile', 'list']);
    expect(list.exitCode).toBe(0);
    // In aligned columns: each as wide as its widest cell.
    const photo = `${MAIN_URL}photo (the build’s setting)`;
    expect(list.stdout.split('\n')).toEqual([
      `main   Main Profile  ${MAIN_URL} (the build’s setting)`,
      `photo  Photographer  ${photo}  scheduled`,
      `shop   Shop          ${`${MAIN_URL}shop`.padEnd(photo.length)}  in force`,
    ]);
  });

  it('anon is not signed in: exit 1, nothing read', async () => {
    const result = await run(cli.dir + '-nobody', ['profile', 'list'], {
      env: emulatorEnv(cli.emulator),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('You are not signed in');
  });
});

describe('namecard set with the profiles the server has', () => {
  it('sets a profile the owner added, and /go lookup answers its destination', async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`]);
    const set = await namecard(['set', 'Shop', '--for', '2h', '--json']);
    expect(set.stderr).toBe('');
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ profile: 'shop' });
    expect(await entries()).toEqual([{ type: 'shop' }]);
  });

  it.each([
    ['shopp', '`profile` must be main, photo or shop, got `shopp`: did you mean `shop`?'],
    [
      'photographer',
      '`profile` must be main, photo or shop, got `photographer`: did you mean `photo`?',
    ],
    ['video', '`profile` must be main, photo or shop, got `video`'],
  ])('an unknown name %s exits 2 listing the profiles, nothing stored', async (name, message) => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`]);
    const result = await namecard(['set', name, '--for', '1h']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: ${message}`);
    expect(await entries()).toEqual([]);
  });

  it('a removed profile is no longer offered nor stored', async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`]);
    await namecard(['profile', 'remove', 'shop']);
    const result = await namecard(['set', 'shop', '--for', '1h']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: `profile` must be main or photo, got `shop`');
    expect(await entries()).toEqual([]);
  });
});

describe("the profile's row names it wherever visitors' destination is shown", () => {
  it('status and set name an added profile by its label and show its destination', async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`, '--label', 'Shop window']);
    const set = await namecard(['set', 'shop', '--for', '1h']);
    expect(set.stderr).toBe('');
    expect(set.exitCode).toBe(0);
    const [done, now] = set.stdout.split('\n');
    expect(done).toMatch(/^✔ The card points to shop \(Shop window\) until /);
    expect(now).toMatch(new RegExp(`^Now: Shop window until .*: ${MAIN_URL}shop$`));

    const status = await namecard(['status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^Now: Shop window until .*: ${MAIN_URL}shop$`, 'm'));
    expect(status.stdout).toMatch(/^Then the main site from /m);
    const json = JSON.parse((await namecard(['status', '--json'])).stdout) as { target: string };
    expect(json.target).toBe(`${MAIN_URL}shop`);

    // A new label shows at once: it is read from the row, not from the CLI.
    expect((await namecard(['profile', 'edit', 'shop', '--label', 'Sale'])).exitCode).toBe(0);
    expect((await namecard(['status'])).stdout).toMatch(/^Now: Sale until /m);
  });

  it('photo relabelled by the owner is shown by its new label', async () => {
    expect((await namecard(['profile', 'edit', 'photo', '--label', 'Gallery'])).exitCode).toBe(0);
    try {
      const set = await namecard(['set', 'photo', '--for', '2h']);
      expect(set.exitCode).toBe(0);
      expect(set.stdout.split('\n')[0]).toMatch(/^✔ The card points to photo \(Gallery\) until /);
      expect((await namecard(['status'])).stdout).toMatch(
        new RegExp(`^Now: Gallery until .*: ${MAIN_URL}photo$`, 'm'),
      );
    } finally {
      await cli.emulator.query(
        `update public.namecard_profile set label = 'Photographer' where name = 'photo'`,
      );
    }
  });

  it("anon learns the label of a profile only while the card's timeline names it", async () => {
    await namecard(['profile', 'add', 'shop', `${MAIN_URL}shop`, '--label', 'Shop window']);
    // What anyone may read: the card's status, its labels those of the profiles it names.
    const shopLabel = async () => {
      const response = await fetch(
        `${cli.emulator.url}/rest/v1/rpc/namecard_status?card=main&select=labels&apikey=${cli.emulator.anonKey}`,
      );
      expect(response.status).toBe(200);
      const [row] = (await response.json()) as [{ labels: Record<string, string> }];
      return row.labels.shop;
    };
    expect(await shopLabel()).toBeUndefined();
    await namecard(['set', 'shop', '--for', '1h']);
    expect(await shopLabel()).toBe('Shop window');
    expect((await namecard(['end'])).exitCode).toBe(0);
    expect(await shopLabel()).toBeUndefined();

    // A live weekly series names it too; cancelled, it no longer does.
    const set = await namecard(['set', 'shop', '--every', 'sat', '10:00-18:00', '--json']);
    expect(set.exitCode).toBe(0);
    expect(await shopLabel()).toBe('Shop window');
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    expect((await namecard(['cancel', String(id)])).exitCode).toBe(0);
    expect(await shopLabel()).toBeUndefined();
  });
});
