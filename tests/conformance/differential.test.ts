import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_JWT_SECRET, type RunningEmulator } from '../../emulator/index.js';
import { addOwner } from '../../emulator/owners.js';
import { storeBenchTokens } from '../security/caller-calls.js';
import { MAIN_CARD_SQL, startTestEmulator, type DbKind } from '../support/emulator.js';
import {
  ATTACK_REQUESTS,
  PRODUCT_REQUESTS,
  callerAttacks,
  type CorpusRequest,
} from './differential-corpus.js';

// The emulator's own REST layer (over PGlite) against the real PostgREST 12 (over PostgreSQL):
// every request of the corpus (differential-corpus.ts: each REST call the product makes, each
// attack of the security suites, as a person, anon or a card token) is sent to both, one after the other, from the same data (the
// same accounts with the same ids, the same writes in the same order, so the same row ids), and
// the answers are compared: status, body, and the headers Content-Range, Content-Location,
// Preference-Applied and Content-Type. docs/emulator.md lists the differences known and why
// each stays; any other difference, or a listed one that no longer differs, fails.

/** The accounts, each with the same fixed id on both servers. */
const ACCOUNTS = {
  owner: { email: 'owner@differential.test', id: '00000000-0000-4000-8000-000000000001' },
  editor: { email: 'editor@differential.test', id: '00000000-0000-4000-8000-000000000002' },
  viewer: { email: 'viewer@differential.test', id: '00000000-0000-4000-8000-000000000003' },
  stranger: { email: 'stranger@differential.test', id: '00000000-0000-4000-8000-000000000004' },
} as const;
const PASSWORD = 'differential-password-1';

/** The headers compared besides status and body. */
const COMPARED_HEADERS = [
  'content-range',
  'content-location',
  'preference-applied',
  'content-type',
];

/** What one server answered, normalised (see normalise). */
interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** One server under test with its placeholders' values. */
interface Server {
  kind: DbKind;
  emulator: RunningEmulator;
  values: Map<string, string>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The normalisation of an answer before the two are compared, so that what depends on the
 * moment a request ran (and on secrets each server draws) does not count as a difference:
 * - a timestamp string (`2030-01-01T10:00:00.123+00:00`, also inside a longer string, such as a
 *   `details` "Failing row contains (…)") becomes `<time>`;
 * - an epoch-ms number (or digits in a string) from 20 minutes before the test started to
 *   5 minutes after it ended becomes `<now>` (the database's `now()`, a visit's 15-minute bucket);
 * - a card token `nct_…` becomes `<token>`, an invitation code `nci_…` becomes `<code>`.
 * Every other value is compared as it is.
 */
function normalise(value: unknown, window: { from: number; to: number }): unknown {
  const isNow = (n: number) => n >= window.from && n <= window.to;
  if (typeof value === 'number') return isNow(value) ? '<now>' : value;
  if (typeof value === 'string') {
    return value
      .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g, '<time>')
      .replace(/\b\d{13}\b/g, (digits) => (isNow(Number(digits)) ? '<now>' : digits))
      .replace(/nct_[A-Za-z0-9_-]+/g, '<token>')
      .replace(/nci_[A-Za-z0-9_-]+/g, '<code>');
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, window));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, window)]));
  }
  return value;
}

/** `text` with every `{{name}}` replaced by the server's value for it. */
function fill(text: string, values: Map<string, string>): string {
  return text.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`no value for the placeholder {{${name}}}`);
    return value;
  });
}

/** A JSON body's placeholders filled: a placeholder that is the whole string becomes a number when it is one. */
function fillJson(body: unknown, values: Map<string, string>): unknown {
  if (typeof body === 'string') {
    const whole = /^\{\{([^}]+)\}\}$/.exec(body);
    const filled = fill(body, values);
    return whole && /^-?\d+$/.test(filled) ? Number(filled) : filled;
  }
  if (Array.isArray(body)) return body.map((v) => fillJson(v, values));
  if (body !== null && typeof body === 'object') {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fillJson(v, values)]));
  }
  return body;
}

/** The request's headers as its sender sends them (see Sender). */
function headersOf(request: CorpusRequest, values: Map<string, string>): Record<string, string> {
  const own = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([k, v]) => [k, fill(v, values)]),
  );
  if (request.sender === 'raw') return own;
  const person: Record<string, string> = request.as
    ? { authorization: `Bearer ${values.get(request.as)!}` }
    : {};
  if (request.sender === 'browser') return { ...person, ...own };
  const write = request.method !== 'GET' && request.method !== 'HEAD';
  return {
    apikey: values.get('anonKey')!,
    ...(request.sender === 'supabase-js'
      ? {
          authorization: `Bearer ${values.get('anonKey')!}`,
          'x-client-info': 'supabase-js-node/2.109.0',
        }
      : {}),
    ...person,
    ...(write
      ? { 'content-profile': 'public', 'content-type': 'application/json' }
      : { 'accept-profile': 'public' }),
    ...own,
  };
}

/** Sends `request` to `server`, answers it normalised, and keeps what it captures. */
async function send(
  server: Server,
  request: CorpusRequest,
  window: { from: number; to: number },
): Promise<Answer> {
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? fill(request.body, server.values)
        : JSON.stringify(fillJson(request.body, server.values));
  if (request.before) await server.emulator.query(request.before);
  const res = await fetch(`${server.emulator.url}${fill(request.path, server.values)}`, {
    method: request.method,
    headers: headersOf(request, server.values),
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown = text === '' ? null : text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // compared as text
  }
  for (const [name, field] of Object.entries(request.capture ?? {})) {
    const value = (parsed as Record<string, unknown> | null)?.[field];
    if (typeof value === 'string') server.values.set(name, value);
  }
  return {
    status: res.status,
    headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers.get(h)])),
    body: normalise(parsed, window),
  };
}

/** The known differences docs/emulator.md lists: the first cell of its table's rows. */
function documentedDifferences(): string[] {
  const doc = readFileSync(new URL('../../docs/emulator.md', import.meta.url), 'utf8');
  const section = doc.split('## Known differences')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]!);
}

/**
 * Makes the accounts with their fixed ids; the owner owns the card main and has made its card
 * tokens BENCH_TOKENS (an editor's and a viewer's), which the callers' calls are made with.
 * @returns main's id
 */
async function seed(emulator: RunningEmulator): Promise<number> {
  for (const { email, id } of Object.values(ACCOUNTS)) {
    await emulator.createUser(email, PASSWORD);
    await emulator.query('update auth.users set id = $1 where email = $2', [id, email]);
  }
  await addOwner(emulator, ACCOUNTS.owner.id);
  await storeBenchTokens(emulator, ACCOUNTS.owner.id);
  const [main] = await emulator.query<{ id: number }>(`select ${MAIN_CARD_SQL}::int as id`);
  return main!.id;
}

/** Signs every account in; the tokens and instants a request's placeholders name. */
async function placeholders(emulator: RunningEmulator, t0: number): Promise<Map<string, string>> {
  const values = new Map<string, string>([['anonKey', emulator.anonKey]]);
  for (const [name, { email }] of Object.entries(ACCOUNTS)) {
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    values.set(name, ((await res.json()) as { access_token: string }).access_token);
  }
  const claims = { sub: ACCOUNTS.owner.id, role: 'authenticated', aud: 'authenticated' };
  const sign = (payload: object, secret: string) =>
    new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
  values.set(
    'expired',
    await sign({ ...claims, exp: Math.floor(t0 / 1000) - 3600 }, LOCAL_JWT_SECRET),
  );
  values.set('forged', await sign({ ...claims, role: 'service_role' }, 'x'.repeat(40)));
  const forgedRoles = {
    roleAuthenticator: 'authenticator',
    rolePostgres: 'postgres',
    roleUnknown: 'no_such_role',
  };
  for (const [name, role] of Object.entries(forgedRoles)) {
    values.set(name, await sign({ ...claims, role }, LOCAL_JWT_SECRET));
  }
  const offsets: Record<string, number> = {
    now: 0,
    'now+1h': HOUR,
    'now+2h': 2 * HOUR,
    'now+3h': 3 * HOUR,
    'now+4h': 4 * HOUR,
    'now+5h': 5 * HOUR,
    'now+6h': 6 * HOUR,
    'now+7h': 7 * HOUR,
    'now+7d': 7 * DAY,
    'now-1d': -DAY + HOUR,
    'now-3d': -3 * DAY,
  };
  for (const [name, offset] of Object.entries(offsets)) values.set(name, String(t0 + offset));
  return values;
}

describe(
  'the emulator’s REST layer (PGlite) against PostgREST 12 (PostgreSQL)',
  { timeout: 240_000 },
  () => {
    const servers: Server[] = [];
    let mainId = 0;
    // On a 15-minute boundary (visit days start on one), and half an hour ahead: the instants the
    // requests name lie outside the `<now>` window.
    const t0 = Math.floor(Date.now() / (15 * MINUTE)) * 15 * MINUTE + 30 * MINUTE;

    beforeAll(async () => {
      for (const kind of ['pglite', 'postgres'] as const) {
        const emulator = await startTestEmulator(kind);
        servers.push({ kind, emulator, values: new Map() });
        mainId = await seed(emulator);
        servers.at(-1)!.values = await placeholders(emulator, t0);
      }
    });
    afterAll(async () => {
      for (const { emulator } of servers) await emulator.stop();
    });

    it('answers every request of the corpus alike, but for the differences docs/emulator.md lists', async () => {
      const [pglite, postgres] = servers as [Server, Server];
      expect(postgres.emulator.rest).toBe('postgrest');
      const started = Date.now();
      // The ids name rows only in the calls' SQL, which this test does not run: main's suffices.
      const ids = {
        cards: { main: mainId, series: mainId, busy: mainId, ended: mainId },
        invitation: 0,
      };
      const corpus = [...PRODUCT_REQUESTS, ...ATTACK_REQUESTS, ...callerAttacks(t0, ids)];
      expect(new Set(corpus.map((r) => r.name)).size).toBe(corpus.length);
      const differing: { name: string; pglite: Answer; postgres: Answer }[] = [];
      for (const request of corpus) {
        const window = { from: started - 20 * MINUTE, to: Date.now() + 5 * MINUTE };
        const a = await send(pglite, request, window);
        const b = await send(postgres, request, window);
        if (JSON.stringify(a) !== JSON.stringify(b))
          differing.push({ name: request.name, pglite: a, postgres: b });
      }
      const documented = documentedDifferences();
      const unexpected = differing.filter((d) => !documented.includes(d.name));
      expect(unexpected, JSON.stringify(unexpected, null, 1)).toEqual([]);
      expect(documented.filter((name) => !differing.some((d) => d.name === name))).toEqual([]);
    });
  },
);
