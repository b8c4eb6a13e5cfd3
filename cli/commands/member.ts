import { cardRefusalOf, parseCardRole, type CardRole } from '../../shared/core/cards.js';
import { INVITATION_SECONDS } from '../../shared/core/members.js';
import { parseDurationMs } from '../../shared/core/entry-rules.js';
import { InputError } from '../../shared/core/errors.js';
import { formatStamp } from '../../shared/core/format.js';
import { didYouMean, nearestName } from '../../shared/core/suggest.js';
import { commandOf } from '../grammar/commander.js';
import type { Connection } from '../session/connect.js';
import { actOnRunCard, cardTitle, type OnCard } from '../session/cards.js';
import { resolveConfig, type CliConfig, type SettingFlags } from '../session/settings.js';
import { print, printJson } from '../terminal/output.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

// `namecard member list|invite|accept|remove|role`: the people of the run's card (chosen by the
// one rule, cli/session/run-card.ts), each one RPC as the run's caller
// (shared/supabase/members.ts). Bad input is refused before anything is sent (exit 2); what the
// server refuses says the role needed and the card (exit 1), and nothing is stored then.

const INVITATION_FORM = /^nci_[A-Za-z0-9_-]{32}$/;

/** `--expires`: a duration from a minute to 90 days, in whole seconds. */
function parseExpires(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const form = 'a duration from 1m to 90d, e.g. 7d or 12h';
  const ms = parseDurationMs(value, '--expires');
  const seconds = Math.round(ms / 1000);
  if (seconds < INVITATION_SECONDS.min || seconds > INVITATION_SECONDS.max) {
    throw new InputError('--expires', form, value);
  }
  return seconds;
}

/** An e-mail address as typed (only its form: the server says whether it is a member). */
function parseEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new InputError('<email>', 'an e-mail address such as ana@example.com', value);
  }
  return email;
}

/** The card named in output when the outputs name it: ` of studio`. */
const ofCard = (config: CliConfig) =>
  config.cardShown === undefined ? '' : ` of ${config.cardShown}`;

async function listAction(options: SettingFlags & { json?: true }) {
  const config = resolveConfig(options);
  const { listMembers } = await import('../../shared/supabase/members.js');
  const { members, shown } = await actOnRunCard(
    config,
    'owner',
    async (on, { client, transport }) => ({
      members: await transport.guard(() => listMembers(client, on.card.slug)),
      shown: on.config,
    }),
  );
  if (options.json) {
    printJson(members);
    return;
  }
  if (shown.cardShown !== undefined) print(`Members of ${shown.cardShown}:`);
  const width = Math.max(...members.map((member) => member.email.length));
  for (const member of members) {
    print(`${member.email.padEnd(width)}  ${member.role}${member.you ? '  (you)' : ''}`);
  }
}

async function inviteAction(
  options: SettingFlags & { role?: string; expires?: string; json?: true },
) {
  const role = parseCardRole(options.role ?? '', '--role');
  const validSeconds = parseExpires(options.expires);
  const config = resolveConfig(options);
  const { inviteMember } = await import('../../shared/supabase/members.js');
  const invitation = await actOnRunCard(config, 'owner', (on, { client, transport }) =>
    transport.guard(() => inviteMember(client, role, { card: on.card.slug, validSeconds }), {
      act: 'member change',
    }),
  );
  const { code, expires } = invitation;
  if (options.json) {
    printJson({ code, role: invitation.role, expires });
    return;
  }
  print(
    `An invitation to ${invitation.card} as ${invitation.role}, for one use until ${formatStamp(Date.parse(expires))}:`,
    '',
    `  ${code}`,
    '',
    'It is shown only now. The person signs in and runs: namecard member accept <code>',
  );
}

async function invitesAction(options: SettingFlags & { json?: true }) {
  const config = resolveConfig(options);
  const { listInvitations } = await import('../../shared/supabase/members.js');
  const { invitations, shown } = await actOnRunCard(
    config,
    'owner',
    async (on, { client, transport }) => ({
      invitations: await transport.guard(() => listInvitations(client, on.card.slug)),
      shown: on.config,
    }),
  );
  if (options.json) {
    printJson(invitations);
    return;
  }
  if (invitations.length === 0) {
    print(`No open invitations${ofCard(shown)}. Make one: namecard member invite --role <role>`);
    return;
  }
  if (shown.cardShown !== undefined) print(`Open invitations of ${shown.cardShown}:`);
  const width = Math.max(...invitations.map((i) => String(i.id).length));
  print(
    ...invitations.map((i) =>
      [
        String(i.id).padStart(width),
        i.role.padEnd(6),
        `by ${terminalSafe(i.maker ?? 'a deleted account')}`,
        `until ${formatStamp(Date.parse(i.expires_at))}`,
      ].join('  '),
    ),
    '',
    'Stop one at once: namecard member revoke-invite <id>',
  );
}

/** `<id>` of `member revoke-invite`: a whole number as `member invites` shows it. */
function parseInvitationId(value: string): number {
  const id = Number(value.trim());
  if (!/^\d{1,15}$/.test(value.trim()) || !Number.isSafeInteger(id) || id < 1) {
    throw new InputError('<id>', 'an invitation id as `namecard member invites` shows it', value);
  }
  return id;
}

async function revokeInviteAction(idArg: string, options: SettingFlags) {
  const id = parseInvitationId(idArg);
  const config = resolveConfig(options);
  const { revokeInvitation } = await import('../../shared/supabase/members.js');
  const revoked = await actOnRunCard(config, 'owner', (on, { client, transport }) =>
    transport.guard(() => revokeInvitation(client, id, on.card.slug), { act: 'member change' }),
  );
  print(
    `Revoked the invitation ${revoked.id} (${revoked.role}) of ${terminalSafe(revoked.card)}: it works no more.`,
  );
}

async function acceptAction(codeArg: string, options: SettingFlags) {
  const code = codeArg.trim();
  if (!INVITATION_FORM.test(code)) {
    // Not echoed: it may be most of a real code.
    throw new InputError(
      '<code>',
      'an invitation code',
      '',
      '`<code>` must be an invitation code: nci_ and 32 letters, digits, - or _, as `namecard member invite` shows it',
    );
  }
  const config = resolveConfig(options);
  const { acceptInvitation } = await import('../../shared/supabase/members.js');
  const [{ requireCaller }, { callerOn }] = await Promise.all([
    import('../session/caller.js'),
    import('../session/cards.js'),
  ]);
  const caller = callerOn(await requireCaller(config), { need: 'person' });
  const card = await caller.run(({ client, transport }) =>
    transport.guard(() => acceptInvitation(client, code), { act: 'member change' }),
  );
  print(
    `You are now ${roleWords(card.role)} of the card ${cardTitle(card)}.`,
    `Act on it with \`--card ${card.slug}\`, or make it current: namecard card use ${card.slug}`,
  );
}

/** `an owner`, `an editor`, `a viewer`. */
const roleWords = (role: CardRole) => `${role === 'viewer' ? 'a' : 'an'} ${role}`;

/**
 * A "no such member" for `email` with the member meant, when the caller may list the members
 * (owners); else the server's refusal as it is.
 */
async function refineMember(error: unknown, connection: Connection, on: OnCard, email: string) {
  if (cardRefusalOf(error) !== 'no_such_member') return error;
  const { listMembers } = await import('../../shared/supabase/members.js');
  try {
    const members = await connection.transport.guard(() =>
      listMembers(connection.client, on.card.slug),
    );
    const emails = members.map((member) => member.email);
    return new InputError(
      '<email>',
      'a member of the card',
      email,
      `\`<email>\` must be a member of the card ${on.card.slug}, got \`${email}\`${didYouMean(nearestName(email, emails))} (see \`namecard member list\`)`,
    );
  } catch {
    return error;
  }
}

async function changeAction(emailArg: string, roleArg: string | undefined, options: SettingFlags) {
  const email = parseEmail(emailArg);
  const role = roleArg === undefined ? undefined : parseCardRole(roleArg, '<role>');
  const config = resolveConfig(options);
  const { removeMember, setMemberRole } = await import('../../shared/supabase/members.js');
  const change = await actOnRunCard(config, 'owner', async (on, connection) => {
    const { client, transport } = connection;
    try {
      return await transport.guard(
        () =>
          role === undefined
            ? removeMember(client, email, on.card.slug)
            : setMemberRole(client, email, role, on.card.slug),
        { act: 'member change' },
      );
    } catch (error) {
      throw await refineMember(error, connection, on, email);
    }
  });
  print(
    role === undefined
      ? `Removed ${change.email} (${change.role}) from ${change.card}.`
      : `${change.email} is now ${roleWords(change.role)} of ${change.card}.`,
  );
}

export const memberCommand = commandOf('member', {
  list: ({ options }) => listAction(options),
  invite: ({ options }) => inviteAction(options),
  invites: ({ options }) => invitesAction(options),
  'revoke-invite': ({ args, options }) => revokeInviteAction(args.id, options),
  accept: ({ args, options }) => acceptAction(args.code, options),
  remove: ({ args, options }) => changeAction(args.email, undefined, options),
  role: ({ args, options }) => changeAction(args.email, args.role, options),
});
