import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
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

/**
 * One raw request to /rest/v1 as `who` (a person's token, or anon with none): GET with the
 * arguments in the query (`args` become `name=value`), or POST with a JSON body.
 */
export async function rest(
  emulator: RunningEmulator,
  who: Person | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = { apikey: emulator.anonKey };
  if (who) headers.authorization = `Bearer ${who.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers.prefer = 'return=representation';
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
  who: Person | null,
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
