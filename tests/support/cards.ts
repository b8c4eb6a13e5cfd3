import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { TOKEN_HEADER } from '../../shared/core/tokens.js';
import { createTestClient } from './supabase.js';

// What the card tests share: signing people in, and raw PostgREST requests as one of them (the
// HTTP a client sends, so that a test sees statuses and bodies as the API answers them).

/** A signed-in person: their supabase-js client, user id and access token. */
export interface Person {
  email: string;
  client: SupabaseClient;
  id: string;
  token: string;
}

/**
 * Makes the account (unless `existing`) and signs it in on a client of its own.
 *
 * @param opts.owner make it an owner of the card main
 */
export async function person(
  emulator: RunningEmulator,
  email: string,
  opts: { owner?: boolean; existing?: boolean } = {},
): Promise<Person> {
  const password = `${email}-password`;
  if (!opts.existing) await emulator.createUser(email, password, { owner: opts.owner ?? false });
  const client = createTestClient(emulator.url, emulator.anonKey);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { email, client, id: data.user!.id, token: data.session!.access_token };
}

/** An answer as a test reads it: status and parsed body (null when empty). */
export interface Answer {
  status: number;
  body: unknown;
}

/** A script calling with a card token (`nct_…`) in the header x-namecard-token, no session. */
export interface TokenCaller {
  cardToken: string;
}

/** Who sends a request: a signed-in person, a card token, or anon (null: the anon key only). */
export type Caller = Person | TokenCaller | null;

/** The headers `who` sends besides the anon key: a person's bearer token or a card token. */
export function callerHeaders(who: Caller): Record<string, string> {
  if (!who) return {};
  return 'cardToken' in who
    ? { [TOKEN_HEADER]: who.cardToken }
    : { authorization: `Bearer ${who.token}` };
}

/**
 * One raw request to /rest/v1 as `who` (a person's token, a card token, or anon with none):
 * GET or HEAD with the arguments in the path's query, or a write with a JSON body.
 */
export async function rest(
  emulator: RunningEmulator,
  who: Caller,
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = { apikey: emulator.anonKey, ...callerHeaders(who) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') headers.prefer = 'return=representation';
  const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** POST /rest/v1/rpc/<fn> with a JSON body of named arguments, as `who`. */
export const rpc = (
  emulator: RunningEmulator,
  who: Caller,
  fn: string,
  args: Record<string, unknown> = {},
): Promise<Answer> => rest(emulator, who, 'POST', `rpc/${fn}`, args);

/**
 * Makes a card as `owner` (rpc/namecard_card_add) and answers its id.
 */
export async function makeCard(
  emulator: RunningEmulator,
  owner: Person,
  slug: string,
  name?: string,
): Promise<number> {
  const made = await rpc(emulator, owner, 'namecard_card_add', { slug, name: name ?? null });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return (made.body as { id: number }).id;
}

/**
 * Makes `who` a member of the card with `role`, the way people join: the owner invites, `who`
 * accepts the code.
 */
export async function join(
  emulator: RunningEmulator,
  owner: Person,
  who: Person,
  card: string,
  role: 'owner' | 'editor' | 'viewer',
): Promise<void> {
  const invited = await rpc(emulator, owner, 'namecard_member_invite', { role, card });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const { code } = invited.body as { code: string };
  const accepted = await rpc(emulator, who, 'namecard_member_accept', { code });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

/** The database's now, epoch ms. */
export async function nowMs(emulator: RunningEmulator): Promise<number> {
  const [row] = await emulator.query<{ n: number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::bigint as n',
  );
  return Number(row!.n);
}

/**
 * Every row that holds a card's data, its people and its tokens, as one JSON value: a refusal
 * must leave it as it was.
 */
const CARD_ROWS = `select jsonb_build_object(
  'entries', (select jsonb_agg(n order by n.id) from public.namecard as n),
  'series', (select jsonb_agg(s order by s.id) from public.namecard_series as s),
  'stops', (select jsonb_agg(x order by x.series_id, x.occurrence_start) from public.namecard_series_stop as x),
  'profiles', (select jsonb_agg(p order by p.card_id, p.name) from public.namecard_profile as p),
  'visits', (select jsonb_agg(v order by v.card_id, v.bucket, v.type, v.via) from public.namecard_visit as v),
  'cards', (select jsonb_agg(c order by c.id) from public.namecard_card as c),
  'members', (select jsonb_agg(m order by m.card_id, m.user_id) from private.namecard_member as m),
  'invitations', (select jsonb_agg(i order by i.id) from private.namecard_invitation as i),
  'tokens', (select jsonb_agg(k order by k.id) from private.namecard_token as k)
) as rows`;

/** The rows of every table of cards, people and tokens (see CARD_ROWS), to compare. */
export async function cardRows(emulator: Pick<RunningEmulator, 'query'>): Promise<unknown> {
  return (await emulator.query<{ rows: unknown }>(CARD_ROWS))[0]!.rows;
}

/**
 * Runs `act` and checks that it was refused with `status`, `code` (and `details` when given),
 * and that no row of any card, person or token changed.
 * @returns the refusal, for a test to compare it with another
 */
export async function expectRefused(
  emulator: Pick<RunningEmulator, 'query'>,
  act: () => Promise<Answer>,
  status: number,
  code: string,
  details?: string,
): Promise<Answer> {
  const before = await cardRows(emulator);
  const answer = await act();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ code, ...(details === undefined ? {} : { details }) });
  expect(await cardRows(emulator)).toEqual(before);
  return answer;
}
