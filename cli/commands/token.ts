import { parseDurationMs } from '../../shared/core/entry-rules.js';
import { InputError } from '../../shared/core/errors.js';
import {
  TOKEN_HEADER,
  TOKEN_NAME_FORM,
  TOKEN_SECONDS,
  isTokenRole,
  type TokenRole,
  type TokenSummary,
} from '../../shared/core/tokens.js';
import { commandOf } from '../grammar/commander.js';
import { actOnRunCard } from '../session/cards.js';
import { resolveConfig, type SettingFlags } from '../session/settings.js';
import { print, printJson } from '../terminal/output.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

// `namecard token create|list|revoke`: the card's tokens for scripts and CI, its owners only,
// each one RPC as the run's caller (shared/supabase/tokens.ts) on the run's card. The secret is
// printed by `create` and never again; bad input is refused before anything is sent (exit 2),
// what the server refuses says the role needed and the card (exit 1), and nothing is stored then.

/** `<name>` as typed, checked before anything is sent. */
function parseName(value: string): string {
  const name = value.trim();
  if (!TOKEN_NAME_FORM.test(name)) {
    throw new InputError(
      '<name>',
      '1 to 40 of A-Z, a-z, 0-9, ., _ and -, starting with a letter or digit (e.g. github-actions)',
      value,
    );
  }
  return name;
}

/** `--role`: editor (default) or viewer; a token never owns a card. */
function parseRole(value: string | undefined): TokenRole {
  if (value === undefined) return 'editor';
  const role = value.trim().toLowerCase();
  if (!isTokenRole(role)) throw new InputError('--role', 'editor or viewer', value);
  return role;
}

/** `--expires`: a duration from a minute to 10 years, or `never` (null); default 90 days. */
function parseExpires(value: string | undefined): number | null {
  if (value === undefined) return TOKEN_SECONDS.default;
  if (value.trim().toLowerCase() === 'never') return null;
  const form = 'a duration from 1m to 10 years (e.g. 30d or 12h), or never';
  const seconds = Math.round(parseDurationMs(value, '--expires') / 1000);
  if (seconds < TOKEN_SECONDS.min || seconds > TOKEN_SECONDS.max) {
    throw new InputError('--expires', form, value);
  }
  return seconds;
}

async function createAction(
  nameArg: string,
  options: SettingFlags & { role?: string; expires?: string; json?: true },
) {
  const name = parseName(nameArg);
  const role = parseRole(options.role);
  const validSeconds = parseExpires(options.expires);
  const config = resolveConfig(options);
  const { createToken } = await import('../../shared/supabase/tokens.js');
  const made = await actOnRunCard(config, 'owner', (on, { client, transport }) =>
    transport.guard(() => createToken(client, name, { role, card: on.card.slug, validSeconds }), {
      act: 'token change',
    }),
  );
  if (options.json) {
    printJson({
      token: made.token,
      name: made.name,
      role: made.role,
      card: made.card,
      expires: made.expires,
    });
    return;
  }
  print(
    `A ${made.role} token ${terminalSafe(made.name)} for the card ${terminalSafe(made.card)}, ${
      made.expires === null ? 'never expiring' : `until ${made.expires}`
    }:`,
    '',
    `  ${made.token}`,
    '',
    'It is shown only now: store it as a secret (e.g. a repository secret NAMECARD_TOKEN).',
    'Scripts then run namecard with NAMECARD_TOKEN set, no login and no password; the token',
    `goes in the request header ${TOKEN_HEADER}, never in a URL or a body.`,
  );
}

/** One line of `token list`: name, role, creator, expiry, last use, and a state that stops it. */
function tokenLine(t: TokenSummary, width: number): string {
  const state = t.state === 'live' ? '' : `  (${t.state})`;
  return [
    terminalSafe(t.name).padEnd(width),
    t.role.padEnd(6),
    `by ${terminalSafe(t.creator ?? 'a deleted account')}`,
    `created ${t.created_at}`,
    `expires ${t.expires_at ?? 'never'}`,
    `last used ${t.last_used_at ?? 'never'}${state}`,
  ].join('  ');
}

async function listAction(options: SettingFlags & { json?: true }) {
  const config = resolveConfig(options);
  const { listTokens } = await import('../../shared/supabase/tokens.js');
  const { tokens, shown } = await actOnRunCard(
    config,
    'owner',
    async (on, { client, transport }) => ({
      tokens: await transport.guard(() => listTokens(client, on.card.slug)),
      shown: on.config.cardShown,
    }),
  );
  if (options.json) {
    printJson(tokens);
    return;
  }
  const of = shown === undefined ? '' : ` of ${shown}`;
  if (tokens.length === 0) {
    print(`No tokens${of}. Make one for a script: namecard token create <name>`);
    return;
  }
  if (shown !== undefined) print(`Tokens of ${shown}:`);
  const width = Math.max(...tokens.map((t) => terminalSafe(t.name).length));
  print(...tokens.map((t) => tokenLine(t, width)));
}

async function revokeAction(nameArg: string, options: SettingFlags) {
  const name = parseName(nameArg);
  const config = resolveConfig(options);
  const { revokeToken } = await import('../../shared/supabase/tokens.js');
  const revoked = await actOnRunCard(config, 'owner', (on, { client, transport }) =>
    transport.guard(() => revokeToken(client, name, on.card.slug), { act: 'token change' }),
  );
  print(
    `Revoked the token ${terminalSafe(revoked.name)} of ${terminalSafe(revoked.card)}: it works no more.`,
  );
}

export const tokenCommand = commandOf('token', {
  create: ({ args, options }) => createAction(args.name, options),
  list: ({ options }) => listAction(options),
  revoke: ({ args, options }) => revokeAction(args.name, options),
});
