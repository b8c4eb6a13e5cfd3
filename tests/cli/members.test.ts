import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER } from '../support/accounts.js';
import { emulatorEnv, login, startEmulator, type Emulator } from './emulator.js';
import { removeDir, run, tempConfigDir, type RunOptions } from './helpers.js';

// `namecard member list|invite|accept|remove|role`, the built CLI as a process against one
// emulator for the file: an owner's second card, an editor and a viewer invited and joining
// (each a member of that card alone), what each may do from the CLI, and every refusal. The
// tests run in order.

const EDITOR = { email: 'editor@example.com', password: 'editor-password-1' };
const VIEWER = { email: 'viewer@example.com', password: 'viewer-password-1' };

let emulator: Emulator;
const dirs: Record<'owner' | 'editor' | 'viewer', string> = { owner: '', editor: '', viewer: '' };

beforeAll(async () => {
  emulator = await startEmulator();
  await emulator.createUser(EDITOR.email, EDITOR.password);
  await emulator.createUser(VIEWER.email, VIEWER.password);
  for (const who of ['owner', 'editor', 'viewer'] as const) dirs[who] = await tempConfigDir();
  await login(emulator, dirs.owner);
  for (const [who, account] of [
    ['editor', EDITOR],
    ['viewer', VIEWER],
  ] as const) {
    const signedIn = await run(dirs[who], ['login', '--email', account.email, '--password-stdin'], {
      env: emulatorEnv(emulator),
      input: `${account.password}\n`,
    });
    if (signedIn.exitCode !== 0) throw new Error(signedIn.stderr);
  }
  const added = await as('owner', ['card', 'add', 'studio', '--name', 'Studio']);
  if (added.exitCode !== 0) throw new Error(added.stderr);
});

afterAll(async () => {
  await emulator?.stop();
  for (const dir of Object.values(dirs)) await removeDir(dir);
});

/** `namecard <args>` as one of the three, each signed in in their own config folder. */
function as(who: keyof typeof dirs, args: string[], env: RunOptions['env'] = {}) {
  return run(dirs[who], args, { env: emulatorEnv(emulator, env) });
}

/** The card's members in the database: email and role, by email. */
async function members(slug = 'studio'): Promise<{ email: string; role: string }[]> {
  return (await emulator.query(
    `select u.email, m.role from private.namecard_member as m
       join auth.users as u on u.id = m.user_id
       join public.namecard_card as c on c.id = m.card_id
     where c.slug = $1 order by u.email`,
    [slug],
  )) as { email: string; role: string }[];
}

/** The entries in the database: their card's slug and profile, oldest first. */
async function entries(): Promise<{ card: string; type: string }[]> {
  return (await emulator.query(
    'select c.slug as card, n.type from public.namecard as n join public.namecard_card as c on c.id = n.card_id order by n.id',
  )) as { card: string; type: string }[];
}

const invitations = async () =>
  Number(
    (
      (await emulator.query('select count(*) as n from private.namecard_invitation')) as {
        n: number;
      }[]
    )[0]!.n,
  );

/** A code made by the owner for `role` on studio, from `member invite --json`. */
async function invite(role: string, extra: string[] = []): Promise<string> {
  const made = await as('owner', [
    'member',
    'invite',
    '--role',
    role,
    '--json',
    '--card',
    'studio',
    ...extra,
  ]);
  expect(made.stderr).toBe('');
  expect(made.exitCode).toBe(0);
  const answer = JSON.parse(made.stdout) as { code: string; role: string; expires: string };
  expect(Object.keys(answer).sort()).toEqual(['code', 'expires', 'role']);
  expect(answer.role).toBe(role);
  expect(answer.code).toMatch(/^nci_[A-Za-z0-9_-]{32}$/);
  return answer.code;
}

describe('namecard member', () => {
  it('invites an editor and a viewer with one-time codes; each accepts and becomes a member', async () => {
    const shown = await as(
      'owner',
      ['member', 'invite', '--role', 'editor', '--card', 'studio', '--expires', '2d'],
      { TZ: 'Asia/Tokyo' },
    );
    expect(shown.exitCode).toBe(0);
    // The expiry in the owner's zone, as every time the CLI shows (not the server's UTC text).
    expect(shown.stdout).toMatch(
      /An invitation to studio as editor, for one use until \d{4}-\d\d-\d\d \d\d:\d\d Asia\/Tokyo \(UTC\+09:00\):\n\n {2}nci_[A-Za-z0-9_-]{32}\n/,
    );
    const editorCode = await invite('editor');
    const viewerCode = await invite('viewer');

    const editor = await as('editor', ['member', 'accept', editorCode]);
    expect(editor.stderr).toBe('');
    expect(editor.exitCode).toBe(0);
    expect(editor.stdout).toContain('You are now an editor of the card Studio (studio).');
    const viewer = await as('viewer', ['member', 'accept', viewerCode]);
    expect(viewer.exitCode).toBe(0);
    expect(viewer.stdout).toContain('You are now a viewer of the card Studio (studio).');
    expect(await members()).toEqual([
      { email: EDITOR.email, role: 'editor' },
      { email: OWNER.email, role: 'owner' },
      { email: VIEWER.email, role: 'viewer' },
    ]);

    const listed = await as('owner', ['member', 'list', '--json', '--card', 'studio']);
    expect(listed.exitCode).toBe(0);
    expect(
      (JSON.parse(listed.stdout) as { email: string; role: string; you: boolean }[]).map(
        ({ email, role, you }) => ({ email, role, you }),
      ),
    ).toEqual([
      { email: OWNER.email, role: 'owner', you: true },
      { email: EDITOR.email, role: 'editor', you: false },
      { email: VIEWER.email, role: 'viewer', you: false },
    ]);
    const cards = await as('editor', ['card', 'list', '--json']);
    // Its only card is the card its runs act on.
    expect(JSON.parse(cards.stdout)).toEqual({
      current: 'studio',
      cards: [{ slug: 'studio', name: 'Studio', role: 'editor' }],
    });
  });

  it('refuses a code used already or expired, alike (exit 1), adding no member', async () => {
    const code = await invite('viewer');
    expect((await as('viewer', ['member', 'accept', code])).exitCode).toBe(0);
    const again = await as('editor', ['member', 'accept', code]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(
      'This invitation code is not valid: it may have expired, been used or been revoked',
    );

    const late = await invite('owner', ['--expires', '1m']);
    await emulator.query(
      "update private.namecard_invitation set expires_at = now() - interval '1 second'",
    );
    const expired = await as('editor', ['member', 'accept', late]);
    expect(expired.exitCode).toBe(1);
    expect(expired.stderr).toContain('This invitation code is not valid');
    expect((await members()).find((m) => m.email === EDITOR.email)?.role).toBe('editor');

    const malformed = await as('editor', ['member', 'accept', 'nci_short']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain('`<code>` must be an invitation code');
  });

  it('lists the open codes without the code, and revokes one: accepting it is refused then', async () => {
    const code = await invite('viewer', ['--expires', '3d']);
    const listed = await as('owner', ['member', 'invites', '--json', '--card', 'studio']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).not.toContain(code.slice(4));
    const open = JSON.parse(listed.stdout) as { id: number; role: string; maker: string }[];
    const mine = open[0]!;
    expect(mine).toMatchObject({ role: 'viewer', maker: OWNER.email });

    const shown = await as('owner', ['member', 'invites', '--card', 'studio'], {
      TZ: 'Asia/Tokyo',
    });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('Open invitations of studio:');
    expect(shown.stdout).toMatch(
      new RegExp(
        `${mine.id} {2}viewer {2}by ${OWNER.email.replace('.', '\\.')} {2}until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d Asia/Tokyo`,
      ),
    );

    const byEditor = await as('editor', ['member', 'invites', '--card', 'studio']);
    expect(byEditor.exitCode).toBe(1);
    expect(byEditor.stderr).toContain('owner');

    const badId = await as('owner', ['member', 'revoke-invite', 'first', '--card', 'studio']);
    expect(badId.exitCode).toBe(2);
    expect(badId.stderr).toContain('`<id>` must be an invitation id');

    const revoked = await as('owner', [
      'member',
      'revoke-invite',
      String(mine.id),
      '--card',
      'studio',
    ]);
    expect(revoked.stderr).toBe('');
    expect(revoked.exitCode).toBe(0);
    expect(revoked.stdout).toContain(
      `Revoked the invitation ${mine.id} (viewer) of studio: it works no more.`,
    );
    const refused = await as('editor', ['member', 'accept', code]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('This invitation code is not valid');
    const again = await as('owner', [
      'member',
      'revoke-invite',
      String(mine.id),
      '--card',
      'studio',
    ]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`There is no open invitation ${mine.id} on this card`);
    const after = await as('owner', ['member', 'invites', '--json', '--card', 'studio']);
    expect((JSON.parse(after.stdout) as { id: number }[]).map((i) => i.id)).not.toContain(mine.id);
  });

  it('lets the editor set the card by --card and by NAMECARD_CARD', async () => {
    const flag = await as('editor', ['set', 'photo', '--for', '1h', '--card', 'studio']);
    expect(flag.stderr).toBe('');
    expect(flag.exitCode).toBe(0);
    expect(flag.stdout).toContain('Card: studio');
    const env = await as('editor', ['set', 'photo', '--for', '2h'], { NAMECARD_CARD: 'studio' });
    expect(env.exitCode).toBe(0);
    expect(await entries()).toEqual([
      { card: 'studio', type: 'photo' },
      { card: 'studio', type: 'photo' },
    ]);
    // main is not the editor's: refused there, nothing stored, and told where to turn.
    const main = await as('editor', ['set', 'photo', '--for', '1h', '--card', 'main']);
    expect(main.exitCode).toBe(2);
    expect(main.stderr).toContain(
      '`--card` must be one of your cards, got `main` (your cards: studio',
    );
    expect(await entries()).toHaveLength(2);
  });

  it('has `whoami` name the card a run acts on, and warn only where the editor may not write', async () => {
    const studio = await as('editor', ['whoami'], { NAMECARD_CARD: 'studio' });
    expect(studio.exitCode).toBe(0);
    expect(studio.stdout).toBe(
      [`${EDITOR.email} at ${emulator.url}`, 'card studio (from NAMECARD_CARD)'].join('\n'),
    );
    const main = await as('editor', ['whoami', '--card', 'main']);
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toBe(
      [
        `${EDITOR.email} at ${emulator.url}`,
        'card main (from --card)',
        '! This account may not change the card main: it is neither an owner nor an editor of it.',
      ].join('\n'),
    );
    const viewer = await as('viewer', ['whoami', '--card', 'studio']);
    expect(viewer.stdout).toContain(
      '! This account may not change the card studio: it is neither an owner nor an editor of it.',
    );
  });

  it("lets the viewer read the card and refuses the viewer's writes, naming the role needed", async () => {
    const status = await as('viewer', ['status', '--json', '--card', 'studio']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ card: 'studio', active: { type: 'photo' } });
    const set = await as('viewer', ['set', 'photo', '--for', '1h', '--card', 'studio']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('needs editor');
    const end = await as('viewer', ['end'], { NAMECARD_CARD: 'studio' });
    expect(end.exitCode).toBe(1);
    expect(end.stderr).toContain('needs editor');
    expect(await entries()).toHaveLength(2);
    const stopped = (await emulator.query(
      'select count(*) as n from public.namecard where stopped_at is not null',
    )) as { n: number }[];
    expect(Number(stopped[0]!.n)).toBe(0);
  });

  it('lets an editor of studio alone set, end and read it with no card named: the only card', async () => {
    const stopped = async () =>
      (await emulator.query(
        `select n.id, n.stop_kind from public.namecard as n
           join public.namecard_card as c on c.id = n.card_id
         where c.slug = 'studio' order by n.id`,
      )) as { id: number; stop_kind: string | null }[];
    for (const args of [
      ['set', 'photo', '--for', '1h'],
      ['set', 'photo', '--for', '1h', '--tz', 'Asia/Tokyo'],
    ]) {
      const set = await as('editor', args);
      expect(set.stderr, args.join(' ')).toBe('');
      expect(set.exitCode, args.join(' ')).toBe(0);
      expect(set.stdout, args.join(' ')).toContain('✔ The card points to photo');
      // One card: the output need not say which.
      expect(set.stdout).not.toContain('Card:');
    }
    expect((await entries()).slice(-2)).toEqual([
      { card: 'studio', type: 'photo' },
      { card: 'studio', type: 'photo' },
    ]);
    const status = await as('editor', ['status', '--json']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ active: { type: 'photo' } });
    const end = await as('editor', ['end']);
    expect(end.stderr).toBe('');
    expect(end.exitCode).toBe(0);
    // End stops every entry in force now: the two set here and the two before.
    expect((await stopped()).map((e) => e.stop_kind)).toEqual(['ended', 'ended', 'ended', 'ended']);
    const list = await as('editor', ['list', '--json']);
    expect(list.exitCode).toBe(0);
    expect((JSON.parse(list.stdout) as { entries: unknown[] }).entries).toHaveLength(4);
    const whoami = await as('editor', ['whoami']);
    expect(whoami.stdout).toBe(`${EDITOR.email} at ${emulator.url}`);
    const link = await as('editor', ['link', '--site-url', 'https://me.example/']);
    expect(link.stdout).toBe('https://me.example/go/?c=studio');
  });

  it("refuses an editor's or a viewer's member commands, naming the role needed, storing nothing", async () => {
    const before = await invitations();
    const list = await as('editor', ['member', 'list', '--card', 'studio']);
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toContain('needs owner');
    const made = await as('editor', ['member', 'invite', '--role', 'editor', '--card', 'studio']);
    expect(made.exitCode).toBe(1);
    expect(made.stderr).toContain('needs owner');
    const role = await as('viewer', ['member', 'role', EDITOR.email, 'viewer', '--card', 'studio']);
    expect(role.exitCode).toBe(1);
    expect(role.stderr).toContain('needs owner');
    expect(await invitations()).toBe(before);
    expect((await members()).map((m) => m.role)).toEqual(['editor', 'owner', 'viewer']);
  });

  it('refuses bad input before anything is sent (exit 2, naming the field and its form)', async () => {
    const before = await invitations();
    const role = await as('owner', ['member', 'invite', '--role', 'boss', '--card', 'studio']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr).toContain('`--role` must be owner, editor or viewer, got `boss`');
    const expires = await as('owner', [
      'member',
      'invite',
      '--role',
      'viewer',
      '--expires',
      '100d',
      '--card',
      'studio',
    ]);
    expect(expires.exitCode).toBe(2);
    expect(expires.stderr).toContain('`--expires` must be a duration from 1m to 90d');
    const email = await as('owner', ['member', 'remove', 'nobody', '--card', 'studio']);
    expect(email.exitCode).toBe(2);
    expect(email.stderr).toContain('`<email>` must be an e-mail address');
    const newRole = await as('owner', [
      'member',
      'role',
      EDITOR.email,
      'admin',
      '--card',
      'studio',
    ]);
    expect(newRole.exitCode).toBe(2);
    expect(newRole.stderr).toContain('`<role>` must be owner, editor or viewer, got `admin`');
    expect(await invitations()).toBe(before);
  });

  it('suggests the member meant for a mistyped email (exit 2)', async () => {
    const typo = await as('owner', [
      'member',
      'role',
      'editr@example.com',
      'viewer',
      '--card',
      'studio',
    ]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('did you mean `editor@example.com`?');
    expect((await members()).map((m) => m.role)).toEqual(['editor', 'owner', 'viewer']);
  });

  it('keeps the last owner: it cannot leave nor be demoted (exit 1)', async () => {
    const demote = await as('owner', ['member', 'role', OWNER.email, 'editor', '--card', 'studio']);
    expect(demote.exitCode).toBe(1);
    expect(demote.stderr).toContain('owner');
    const leave = await as('owner', ['member', 'remove', OWNER.email, '--card', 'studio']);
    expect(leave.exitCode).toBe(1);
    expect(await members()).toContainEqual({ email: OWNER.email, role: 'owner' });
  });

  it('changes a role and removes a member; a member may leave', async () => {
    const promoted = await as('owner', [
      'member',
      'role',
      VIEWER.email,
      'editor',
      '--card',
      'studio',
    ]);
    expect(promoted.exitCode).toBe(0);
    expect(promoted.stdout).toContain('viewer@example.com is now an editor of studio.');
    const removed = await as('owner', ['member', 'remove', EDITOR.email, '--card', 'studio']);
    expect(removed.exitCode).toBe(0);
    expect(removed.stdout).toContain('Removed editor@example.com (editor) from studio.');
    const left = await as('viewer', ['member', 'remove', VIEWER.email, '--card', 'studio']);
    expect(left.exitCode).toBe(0);
    expect(await members()).toEqual([{ email: OWNER.email, role: 'owner' }]);
    // Gone: the card is none of theirs, with the cards they have.
    const after = await as('editor', ['set', 'photo', '--for', '1h', '--card', 'studio']);
    expect(after.exitCode).toBe(2);
    expect(after.stderr).toContain(
      '`--card` must be one of your cards, got `studio` (you have no card',
    );
  });
});
