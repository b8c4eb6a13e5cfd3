import { describe, expect, it } from 'vitest';
import { emulatorEnv, useSignedInFile } from './emulator.js';
import { KEY, atTerminal, run, type RunOptions } from './helpers.js';

// `namecard card list|add|use|rename|remove`, `--card`, NAMECARD_CARD and the cards' own links,
// the built CLI as a process against one emulator for the file. The tests run in order: the
// owner's second card, added by the first, is the one the later ones act on.

const cli = useSignedInFile();

const SITE = 'https://me.example/';

/** `namecard <args>` as the signed-in owner. */
const owner = (args: string[], env: RunOptions['env'] = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

/** The cards in the database: slug, name, removed or not. */
async function cards(): Promise<{ slug: string; name: string; removed: boolean }[]> {
  const rows = (await cli.emulator.query(
    'select slug, name, removed_at is not null as removed from public.namecard_card order by id',
  )) as { slug: string; name: string; removed: boolean }[];
  return rows.map(({ slug, name, removed }) => ({ slug, name, removed }));
}

/** The entries in the database with their card's slug, oldest first. */
async function entries(): Promise<{ card: string; type: string }[]> {
  return (await cli.emulator.query(
    'select c.slug as card, n.type from public.namecard as n join public.namecard_card as c on c.id = n.card_id order by n.id',
  )) as { card: string; type: string }[];
}

describe('namecard card', () => {
  it('adds a second card the owner owns, listed with main as current', async () => {
    const added = await owner(['card', 'add', 'studio', '--name', 'Studio']);
    expect(added.stderr).toBe('');
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toContain('Added the card Studio (studio): you are its owner.');
    expect((await cards()).map((c) => c.slug)).toEqual(['main', 'studio']);

    const listed = await owner(['card', 'list', '--json']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      current: 'main',
      cards: [
        { slug: 'main', name: 'Main card', role: 'owner' },
        { slug: 'studio', name: 'Studio', role: 'owner' },
      ],
    });
    const text = await owner(['card', 'list']);
    expect(text.stdout).toMatch(/^\* main +owner +Main card$/m);
    expect(text.stdout).toMatch(/^ {2}studio +owner +Studio$/m);
  });

  it('refuses a slug of the wrong form (exit 2, naming the field), storing nothing', async () => {
    const before = await cards();
    const add = await owner(['card', 'add', 'Bad_Slug']);
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toContain(
      '`<slug>` must be 2 to 32 of a-z, 0-9 and -, not starting with - (e.g. studio), got `Bad_Slug`',
    );
    const flag = await owner(['set', 'photo', '--for', '1h', '--card', '-x']);
    expect(flag.exitCode).toBe(2);
    const eq = await owner(['set', 'photo', '--for', '1h', '--card=Studio!']);
    expect(eq.exitCode).toBe(2);
    expect(eq.stderr).toContain('`--card` must be 2 to 32 of a-z, 0-9 and -');
    const env = await owner(['set', 'photo', '--for', '1h'], { NAMECARD_CARD: 'x' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain('`NAMECARD_CARD` must be 2 to 32 of a-z, 0-9 and -');
    expect(await cards()).toEqual(before);
    expect(await entries()).toEqual([]);
  });

  it('refuses a slug taken (exit 1), adding no card', async () => {
    const taken = await owner(['card', 'add', 'studio']);
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toContain('The slug studio is taken');
    expect((await cards()).map((c) => c.slug)).toEqual(['main', 'studio']);
  });

  it('refuses a card that is none of yours with the one meant (exit 2), storing nothing', async () => {
    const use = await owner(['card', 'use', 'studoi']);
    expect(use.exitCode).toBe(2);
    expect(use.stderr).toContain(
      '`<slug>` must be one of your cards, got `studoi`: did you mean `studio`? (your cards: main, studio',
    );
    const set = await owner(['set', 'photo', '--for', '1h', '--card', 'studoi']);
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain(
      '`--card` must be one of your cards, got `studoi`: did you mean `studio`?',
    );
    const env = await owner(['end'], { NAMECARD_CARD: 'stdio' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain(
      '`NAMECARD_CARD` must be one of your cards, got `stdio`: did you mean `studio`?',
    );
    expect(await entries()).toEqual([]);
  });

  it('sets the card named by --card or NAMECARD_CARD, and says which', async () => {
    const flag = await owner(['set', 'photo', '--for', '1h', '--card', 'studio']);
    expect(flag.stderr).toBe('');
    expect(flag.exitCode).toBe(0);
    expect(flag.stdout).toContain('Card: studio');
    const env = await owner(['set', 'photo', '--for', '2h', '--json'], { NAMECARD_CARD: 'studio' });
    expect(env.exitCode).toBe(0);
    expect(JSON.parse(env.stdout)).toMatchObject({ card: 'studio', profile: 'photo' });
    expect(await entries()).toEqual([
      { card: 'studio', type: 'photo' },
      { card: 'studio', type: 'photo' },
    ]);
    // With no card named, main, where the owner is a member; with two cards, the output names it.
    const main = await owner(['set', 'photo', '--for', '1h']);
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toContain('Card: main');
    expect((await entries()).at(-1)).toEqual({ card: 'main', type: 'photo' });
  });

  it('reads the card named by --card: list, profile list, preview, calendar and stats', async () => {
    const ids = async (slug: string) =>
      (
        (await cli.emulator.query(
          'select n.id from public.namecard as n join public.namecard_card as c on c.id = n.card_id where c.slug = $1 order by n.id desc',
          [slug],
        )) as { id: number }[]
      ).map((r) => Number(r.id));
    const list = await owner(['list', '--json', '--card', 'studio']);
    expect(list.exitCode).toBe(0);
    const listed = JSON.parse(list.stdout) as { entries: { id: number; state: string }[] };
    expect(listed.entries.map((e) => e.id)).toEqual(await ids('studio'));
    expect(listed.entries[0]!.state).toBe('on-now');
    const mainList = JSON.parse((await owner(['list', '--json'])).stdout) as typeof listed;
    expect(mainList.entries.map((e) => e.id)).toEqual(await ids('main'));

    const profiles = await owner(['profile', 'list', '--json', '--card', 'studio']);
    expect(profiles.exitCode).toBe(0);
    expect(
      (JSON.parse(profiles.stdout) as { name: string; state: string }[]).map((p) => p.name),
    ).toEqual(['main', 'photo']);

    const at = new Date(Date.now() + 30 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    const preview = await owner(['preview', '--at', at, '--json', '--card', 'studio']);
    expect(preview.stderr).toBe('');
    expect(preview.exitCode).toBe(0);
    expect(JSON.parse(preview.stdout)).toMatchObject({
      profile: 'photo',
      id: (await ids('studio'))[0],
    });

    const calendar = await owner(['calendar', '--card', 'studio']);
    expect(calendar.exitCode).toBe(0);
    expect(calendar.stdout.match(/BEGIN:VEVENT/g)).toHaveLength(2);

    const stats = await owner(['stats', '--json', '--card', 'studio']);
    expect(stats.stderr).toBe('');
    expect(stats.exitCode).toBe(0);
  });

  it("refuses to cancel another card's entry by its id, naming the card it is not on (exit 1), stopping nothing", async () => {
    const [row] = (await cli.emulator.query(
      "select n.id from public.namecard as n join public.namecard_card as c on c.id = n.card_id where c.slug = 'main' and n.stop_kind is null order by n.id desc limit 1",
    )) as { id: number }[];
    const id = Number(row!.id);
    const refused = await owner(['cancel', String(id), '--card', 'studio']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`error: There is no entry ${id} on the card studio`);
    expect(refused.stderr).toContain('`namecard list --card studio`');
    const [after] = (await cli.emulator.query(
      'select stop_kind from public.namecard where id = $1',
      [id],
    )) as { stop_kind: string | null }[];
    expect(after!.stop_kind).toBeNull();
  });

  it('makes a card current with `card use`: commands act on it until another is chosen', async () => {
    const use = await owner(['card', 'use', 'studio']);
    expect(use.exitCode).toBe(0);
    expect(use.stdout).toContain('Current card: Studio (studio)');
    expect(JSON.parse((await owner(['card', 'list', '--json'])).stdout).current).toBe('studio');

    // status, end and the light path's commands: the current card, named.
    const status = await owner(['status', '--json']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ card: 'studio', active: { type: 'photo' } });
    const shown = await owner(['status']);
    expect(shown.stdout).toContain('Card: studio');
    const end = await owner(['end', '--json']);
    expect(end.exitCode).toBe(0);
    expect(JSON.parse(end.stdout)).toMatchObject({ card: 'studio', active: null });
    expect(JSON.parse((await owner(['status', '--json'])).stdout)).toMatchObject({ active: null });

    // --card wins over the current card.
    const other = await owner(['status', '--json', '--card', 'main']);
    expect(JSON.parse(other.stdout)).toMatchObject({ card: 'main', active: { type: 'photo' } });
    expect(JSON.parse(end.stdout).ended).toHaveLength(2);
    // NAMECARD_CARD wins over the current card too, and --card over NAMECARD_CARD.
    const env = await owner(['status', '--json'], { NAMECARD_CARD: 'main' });
    expect(JSON.parse(env.stdout)).toMatchObject({ card: 'main' });
    const both = await owner(['status', '--json', '--card', 'studio'], { NAMECARD_CARD: 'main' });
    expect(JSON.parse(both.stdout)).toMatchObject({ card: 'studio' });

    const back = await owner(['card', 'use', 'main']);
    expect(back.exitCode).toBe(0);
    const plain = await owner(['status', '--json']);
    expect(JSON.parse(plain.stdout)).toMatchObject({ card: 'main' });
  });

  it("gives each card's own link: `/go/?c=<slug>`, main's bare `/go/`", async () => {
    const studio = await owner(['link', '--card', 'studio', '--site-url', SITE]);
    expect(studio.exitCode).toBe(0);
    expect(studio.stdout).toBe('https://me.example/go/?c=studio');
    const nfc = await owner(['link', '--nfc', '--site-url', SITE], { NAMECARD_CARD: 'studio' });
    expect(nfc.stdout).toBe('https://me.example/go/?c=studio&via=nfc');
    const main = await owner(['link', '--card', 'main', '--site-url', SITE]);
    expect(main.stdout).toBe('https://me.example/go/');
    expect((await owner(['link', '--site-url', SITE])).stdout).toBe('https://me.example/go/');
    await owner(['card', 'use', 'studio']);
    const current = await owner(['link', '--json', '--site-url', SITE]);
    expect(JSON.parse(current.stdout)).toMatchObject({ link: 'https://me.example/go/?c=studio' });
    await owner(['card', 'use', 'main']);
  });

  it('renames a card', async () => {
    const renamed = await owner(['card', 'rename', 'studio', 'The Studio']);
    expect(renamed.exitCode).toBe(0);
    expect(renamed.stdout).toContain('Renamed: The Studio (studio).');
    expect((await cards())[1]).toEqual({ slug: 'studio', name: 'The Studio', removed: false });
    const empty = await owner(['card', 'rename', 'studio', ' ']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('`<name>` must be 1 to 60 characters');
  });

  it('removes a card only with --yes without a terminal (exit 2 naming --yes), never main', async () => {
    await owner(['card', 'use', 'studio']);
    const asked = await owner(['card', 'remove', 'studio']);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toContain('add --yes');
    expect((await cards())[1]!.removed).toBe(false);

    const main = await owner(['card', 'remove', 'main', '--yes']);
    expect(main.exitCode).toBe(1);
    expect(main.stderr).toContain('The card main cannot be removed');

    const removed = await owner(['card', 'remove', 'studio', '--yes']);
    expect(removed.stderr).toBe('');
    expect(removed.exitCode).toBe(0);
    expect((await cards())[1]!.removed).toBe(true);
    // It was current: main is again, as the owner's only card.
    expect(JSON.parse((await owner(['card', 'list', '--json'])).stdout)).toEqual({
      current: 'main',
      cards: [{ slug: 'main', name: 'Main card', role: 'owner' }],
    });
    // Its slug is never given again.
    const again = await owner(['card', 'add', 'studio']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('taken');
  });

  it('asks before removing a card at a terminal: no keeps it, yes removes it', async () => {
    expect((await owner(['card', 'add', 'fair'])).exitCode).toBe(0);
    const no = atTerminal(cli.dir, ['card', 'remove', 'fair'], emulatorEnv(cli.emulator));
    await no.waitFor('Remove the card fair for good?');
    no.type(`n${KEY.enter}`);
    const kept = await no.exit();
    expect(kept.exitCode).toBe(0);
    expect(kept.screen).toContain('Nothing removed.');
    expect((await cards()).find((c) => c.slug === 'fair')?.removed).toBe(false);

    const yes = atTerminal(cli.dir, ['card', 'remove', 'fair'], emulatorEnv(cli.emulator));
    await yes.waitFor('Remove the card fair for good?');
    yes.type(`y${KEY.enter}`);
    const gone = await yes.exit();
    expect(gone.exitCode).toBe(0);
    expect(gone.screen).toContain('Removed the card fair');
    expect((await cards()).find((c) => c.slug === 'fair')?.removed).toBe(true);
  });
});
