import { anonCalls } from '../security/anon-calls.js';

// The requests the product sends to /rest/v1, each recorded once as method, path, headers and
// body, and the attacks of the security suites: what tests/conformance/differential.test.ts
// sends to the emulator's own REST layer (PGlite) and to PostgREST (PostgreSQL) from the same
// data. `{{name}}` is a placeholder filled at run time, per server: `{{anonKey}}`, an access token
// (`{{owner}}`, `{{editor}}`, `{{viewer}}`, `{{stranger}}`), an instant (`{{now+2h}}`: epoch ms
// from the test's start, the same for both servers) or a value an earlier answer gave
// (`capture`: an invitation code, a card token's secret).

/** Who sends a request, and so which headers it carries. */
export type Sender =
  /** supabase-js (the CLI's program, /manage, /login): apikey, Authorization, profile headers. */
  | 'supabase-js'
  /** The CLI's light path (node:http): apikey, Authorization, profile headers. */
  | 'light'
  /** /go in a browser: CORS-simple, the key as `?apikey=`, no header of its own. */
  | 'browser'
  /** An attacker's hand-made request: exactly the headers given. */
  | 'raw';

/** One recorded request. */
export interface CorpusRequest {
  /** Unique; docs/emulator.md lists a known difference by it. */
  name: string;
  /** Where it comes from: the command, page or security suite that sends it. */
  from: string;
  sender: Sender;
  /** The access token placeholder it is sent with (supabase-js and light), or none (anon). */
  as?:
    | 'owner'
    | 'editor'
    | 'viewer'
    | 'stranger'
    | 'expired'
    | 'forged'
    | 'roleAuthenticator'
    | 'rolePostgres'
    | 'roleUnknown';
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Below the API URL, with the query string, e.g. `/rest/v1/namecard_active?select=*`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON body (stringified as supabase-js does), or the raw text of one. */
  body?: unknown;
  /** Placeholders this request's answer fills for later requests: name → field of its body. */
  capture?: Record<string, string>;
  /** SQL run as the superuser on both servers before the request (data no API call makes). */
  before?: string;
}

const ACTIVE = 'id,type,stamp_start,stamp_end,url';
const STATUS = 'now,active,timeline,labels,url,series_ahead';
const OWNER_COLUMNS =
  'id,type,stamp_start,stamp_end,created_at,created_by,stopped_at,stop_kind,planned_end';
const PROFILE_COLUMNS = 'name,label,url,removed_at';
const SERIES_COLUMNS =
  'id,type,weekdays,start_time,end_time,time_zone,first_date,last_date,stopped_at';

type Who = CorpusRequest['as'];

/** A supabase-js `.rpc(fn, args)` (POST, JSON body). */
const rpc = (
  name: string,
  from: string,
  as: Who,
  fn: string,
  args: unknown = {},
): CorpusRequest => ({
  name,
  from,
  sender: 'supabase-js',
  ...(as ? { as } : {}),
  method: 'POST',
  path: `/rest/v1/rpc/${fn}`,
  body: args,
});

/** A supabase-js read of a table or view. */
const read = (name: string, from: string, as: Who, query: string): CorpusRequest => ({
  name,
  from,
  sender: 'supabase-js',
  ...(as ? { as } : {}),
  method: 'GET',
  path: `/rest/v1/${query}`,
});

/** The product's requests, in the order they are sent (writes change what later ones read). */
export const PRODUCT_REQUESTS: CorpusRequest[] = [
  // /go, as a visitor's browser sends it: the view, a card's lookup, the visit counts.
  {
    name: 'go: lookup, nothing in force',
    from: '/go (shared/core/lookup.ts viewUrl)',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/namecard_active?select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'go: card lookup of main',
    from: '/go/?c=main (cardViewUrl)',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/rpc/namecard_go?card=main&select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'go: card lookup of an unknown card',
    from: '/go/?c=nobody (cardViewUrl)',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/rpc/namecard_go?card=nobody&select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'go: visit count (text/plain)',
    from: '/go (site/src/go/count-visit.ts)',
    sender: 'browser',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_count_visit?apikey={{anonKey}}',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: 'qr',
  },
  {
    name: 'go: card visit count (form)',
    from: '/go/?c=main (count-visit.ts)',
    sender: 'browser',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_count_card_visit?apikey={{anonKey}}',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: 'via=nfc&card=main',
  },
  // The owner at the terminal (the program's supabase-js calls) and on /manage.
  rpc('cli: cards', 'namecard card list, /manage', 'owner', 'namecard_cards'),
  read('manage: may I set', '/manage (canSetCard)', 'owner', 'namecard_access?select=can_set'),
  read(
    'cli: profiles',
    'namecard profile list, /manage',
    'owner',
    `namecard_profile?select=${PROFILE_COLUMNS}&order=name.asc`,
  ),
  read(
    'cli: profiles by name',
    'namecard set (profilesByName)',
    'owner',
    `namecard_profile?select=${PROFILE_COLUMNS}&name=in.(main,photo)`,
  ),
  rpc('cli: set photo', 'namecard set photo …', 'owner', 'namecard_set', {
    type: 'photo',
    stamp_start: null,
    stamp_end: '{{now+2h}}',
  }),
  rpc('cli: set later', 'namecard set main --from …', 'owner', 'namecard_set', {
    type: 'main',
    stamp_start: '{{now+3h}}',
    stamp_end: '{{now+4h}}',
  }),
  {
    name: 'cli: status (light)',
    from: 'namecard status (cli/light)',
    sender: 'light',
    as: 'owner',
    method: 'GET',
    path: `/rest/v1/namecard_status?select=${STATUS}`,
  },
  {
    name: 'go: lookup, an entry in force',
    from: '/go',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/namecard_active?select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'cli: status signed out',
    from: 'namecard status (no session)',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/namecard_status?select=${STATUS}&apikey={{anonKey}}`,
  },
  read(
    'cli: list',
    'namecard list',
    'owner',
    `namecard?select=${OWNER_COLUMNS}&order=id.desc&limit=20`,
  ),
  read(
    'cli: list signed out',
    'namecard list (no session)',
    undefined,
    'namecard?select=id,type,stamp_start,stamp_end&order=id.desc&limit=20',
  ),
  read(
    'cli: calendar entries',
    'namecard calendar',
    'owner',
    `namecard?select=${OWNER_COLUMNS}&stamp_end=gt.{{now}}&order=id.desc&limit=1000`,
  ),
  {
    name: 'cli: insert an entry',
    from: 'insertEntry (shared/supabase/data.ts)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: `/rest/v1/namecard?select=${OWNER_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { type: 'main', stamp_end: '{{now+5h}}', stamp_start: '{{now+4h}}' },
  },
  rpc('cli: preview', 'namecard preview', 'owner', 'namecard_preview', {
    at_ms: ['{{now+1h}}', '{{now+3h}}'],
    card: null,
  }),
  rpc('cli: visit days', 'namecard stats, /manage', 'owner', 'namecard_visit_days', {
    day_starts: ['{{now-1d}}', '{{now+1h}}'],
  }),
  rpc('cli: cancel', 'namecard cancel 2', 'owner', 'namecard_cancel', { entry_id: 2 }),
  rpc('cli: cancel again', 'namecard cancel 2 (twice)', 'owner', 'namecard_cancel', {
    entry_id: 2,
  }),
  rpc('cli: cancel unknown', 'namecard cancel 999', 'owner', 'namecard_cancel', { entry_id: 999 }),
  rpc('cli: end now', 'namecard end', 'owner', 'namecard_end_now'),
  rpc('cli: end now, nothing in force', 'namecard end (again)', 'owner', 'namecard_end_now'),
  rpc('cli: set series', 'namecard series add', 'owner', 'namecard_set_series', {
    type: 'photo',
    weekdays: [1, 3],
    start_time: '09:00',
    end_time: '10:30',
    time_zone: 'Europe/Berlin',
    first_date: '2031-01-01',
    last_date: null,
  }),
  read(
    'cli: series',
    'namecard series list',
    'owner',
    `namecard_series?select=${SERIES_COLUMNS}&order=id.desc&limit=1000`,
  ),
  read(
    'cli: series stops',
    'namecard series list',
    'owner',
    'namecard_series_stop?select=series_id,occurrence_start,stopped_at',
  ),
  rpc('manage: occurrences', '/manage timeline', 'owner', 'namecard_occurrences', {
    from_ms: '{{now}}',
    to_ms: '{{now+7d}}',
  }),
  rpc(
    'cli: set series, bad weekdays',
    'namecard series add (refused)',
    'owner',
    'namecard_set_series',
    {
      type: 'photo',
      weekdays: [],
      start_time: '09:00',
      end_time: '10:30',
      time_zone: 'Europe/Berlin',
      first_date: '2031-01-01',
      last_date: null,
    },
  ),
  // Profiles (CLI and /manage).
  {
    name: 'cli: add profile',
    from: 'namecard profile add (addProfile)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: `/rest/v1/namecard_profile?select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { name: 'talk', label: 'Talk', url: 'https://card.example/talk' },
  },
  {
    name: 'cli: add profile again',
    from: 'namecard profile add (a name taken)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: `/rest/v1/namecard_profile?select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { name: 'talk', label: 'Talk', url: 'https://card.example/talk' },
  },
  {
    name: 'manage: edit profile',
    from: '/manage profile edit (updateProfile)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'PATCH',
    path: `/rest/v1/namecard_profile?name=eq.talk&removed_at=is.null&select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { label: 'Talks' },
  },
  rpc('cli: remove profile', 'namecard profile remove', 'owner', 'namecard_remove_profile', {
    profile_name: 'talk',
  }),
  {
    name: 'cli: add removed profile back',
    from: 'namecard profile add (a removed name)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'PATCH',
    path: `/rest/v1/namecard_profile?name=eq.talk&removed_at=not.is.null&select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { label: 'Talk', url: 'https://card.example/talk', removed_at: null },
  },
  // Cards, members and invitations.
  rpc('cli: add card', 'namecard card add studio', 'owner', 'namecard_card_add', {
    slug: 'studio',
    name: 'Studio',
  }),
  rpc(
    'cli: add card, slug taken',
    'namecard card add studio (again)',
    'owner',
    'namecard_card_add',
    {
      slug: 'studio',
      name: null,
    },
  ),
  rpc('cli: rename card', 'namecard card rename', 'owner', 'namecard_card_rename', {
    card: 'studio',
    name: 'The studio',
  }),
  {
    ...rpc('cli: invite editor', 'namecard member invite', 'owner', 'namecard_member_invite', {
      role: 'editor',
      card: 'studio',
    }),
    capture: { editorCode: 'code' },
  },
  {
    ...rpc('cli: invite viewer', 'namecard member invite', 'owner', 'namecard_member_invite', {
      role: 'viewer',
      card: 'studio',
      valid_seconds: 3600,
    }),
    capture: { viewerCode: 'code' },
  },
  rpc('cli: accept (editor)', 'namecard member accept', 'editor', 'namecard_member_accept', {
    code: '{{editorCode}}',
  }),
  rpc('cli: accept (viewer)', 'namecard member accept', 'viewer', 'namecard_member_accept', {
    code: '{{viewerCode}}',
  }),
  rpc(
    'cli: accept a used code',
    'namecard member accept (again)',
    'stranger',
    'namecard_member_accept',
    {
      code: '{{editorCode}}',
    },
  ),
  rpc('cli: members', 'namecard member list', 'owner', 'namecard_members', { card: 'studio' }),
  rpc('cli: members as viewer', 'namecard member list (viewer)', 'viewer', 'namecard_members', {
    card: 'studio',
  }),
  rpc('cli: set on a card (editor)', 'namecard set --card studio', 'editor', 'namecard_set', {
    type: 'photo',
    stamp_start: null,
    stamp_end: '{{now+2h}}',
    card: 'studio',
  }),
  rpc(
    'cli: set on a card (viewer)',
    'namecard set --card studio (viewer)',
    'viewer',
    'namecard_set',
    {
      type: 'photo',
      stamp_start: null,
      stamp_end: '{{now+2h}}',
      card: 'studio',
    },
  ),
  rpc('cli: card status', 'namecard status --card studio', 'viewer', 'namecard_card_status', {
    card: 'studio',
  }),
  {
    name: 'go: card lookup of studio',
    from: '/go/?c=studio',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/rpc/namecard_go?card=studio&select=${ACTIVE}&apikey={{anonKey}}`,
  },
  read(
    'cli: list of a card',
    'namecard list --card studio',
    'editor',
    `namecard?select=${OWNER_COLUMNS}&card_id=eq.2&order=id.desc&limit=20`,
  ),
  rpc('cli: member role', 'namecard member role', 'owner', 'namecard_member_role', {
    email: 'viewer@differential.test',
    role: 'editor',
    card: 'studio',
  }),
  rpc('cli: member remove', 'namecard member remove', 'owner', 'namecard_member_remove', {
    email: 'viewer@differential.test',
    card: 'studio',
  }),
  rpc(
    'cli: last owner leaves',
    'namecard member remove (self)',
    'owner',
    'namecard_member_remove',
    {
      email: 'owner@differential.test',
      card: 'studio',
    },
  ),
  // Card tokens.
  {
    ...rpc('cli: token create', 'namecard token create', 'owner', 'namecard_token_create', {
      name: 'ci',
      role: 'editor',
      card: 'studio',
      valid_seconds: 86400,
    }),
    capture: { cardToken: 'token' },
  },
  rpc('cli: tokens', 'namecard token list, /manage Tokens', 'owner', 'namecard_tokens', {
    card: 'studio',
  }),
  rpc('cli: token whoami', 'NAMECARD_TOKEN=… namecard whoami', undefined, 'namecard_token_whoami', {
    token: '{{cardToken}}',
  }),
  rpc('cli: token set', 'NAMECARD_TOKEN=… namecard set', undefined, 'namecard_token_set', {
    token: '{{cardToken}}',
    type: 'main',
    stamp_start: '{{now+6h}}',
    stamp_end: '{{now+7h}}',
  }),
  rpc('cli: token status', 'NAMECARD_TOKEN=… namecard status', undefined, 'namecard_token_status', {
    token: '{{cardToken}}',
  }),
  rpc('cli: token entries', 'NAMECARD_TOKEN=… namecard list', undefined, 'namecard_token_entries', {
    token: '{{cardToken}}',
    max_rows: 20,
  }),
  rpc('cli: token end', 'NAMECARD_TOKEN=… namecard end', undefined, 'namecard_token_end_now', {
    token: '{{cardToken}}',
  }),
  rpc('cli: token revoke', 'namecard token revoke', 'owner', 'namecard_token_revoke', {
    name: 'ci',
    card: 'studio',
  }),
  rpc('cli: revoked token', 'NAMECARD_TOKEN=… (revoked)', undefined, 'namecard_token_status', {
    token: '{{cardToken}}',
  }),
  rpc('cli: remove card', 'namecard card remove', 'owner', 'namecard_card_remove', {
    card: 'studio',
  }),
  rpc(
    'cli: removed card',
    'namecard status --card studio (removed)',
    'editor',
    'namecard_card_status',
    {
      card: 'studio',
    },
  ),
  // doctor's probe and /login (a session's first read).
  {
    name: 'doctor: schema version',
    from: 'namecard doctor (cli/transport/probe.ts)',
    sender: 'browser',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_schema_version?apikey={{anonKey}}',
  },
  rpc('login: cards after sign-in', '/login then /manage', 'stranger', 'namecard_cards'),
];

/** The security suites' attacks: a stranger, anon, a forged or expired token, hostile bodies. */
export const ATTACK_REQUESTS: CorpusRequest[] = [
  read(
    'rls: stranger reads entries',
    'tests/security/rls-matrix.test.ts',
    'stranger',
    'namecard?select=*',
  ),
  read(
    'rls: anon reads owner columns',
    'tests/security/anon-columns.test.ts',
    undefined,
    'namecard?select=created_by',
  ),
  read(
    'rls: anon reads profiles',
    'tests/security/anon-columns.test.ts',
    undefined,
    'namecard_profile?select=*',
  ),
  {
    name: 'rls: anon inserts',
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: { type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    name: 'rls: stranger inserts',
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    as: 'stranger',
    method: 'POST',
    path: '/rest/v1/namecard?select=*',
    headers: { prefer: 'return=representation' },
    body: { type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    name: 'rls: owner deletes',
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    as: 'owner',
    method: 'DELETE',
    path: '/rest/v1/namecard?id=eq.1',
  },
  {
    name: 'rls: anon updates',
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    method: 'PATCH',
    path: '/rest/v1/namecard?id=eq.1',
    body: { type: 'main' },
  },
  {
    name: 'rls: owner chooses created_by',
    from: 'tests/conformance/rest.test.ts',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: {
      type: 'photo',
      stamp_end: '{{now+1h}}',
      created_by: '00000000-0000-4000-8000-000000000004',
    },
  },
  {
    name: 'rls: unknown column',
    from: 'tests/conformance/rest.test.ts',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: { type: 'photo', stamp_end: '{{now+1h}}', colour: 'red' },
  },
  rpc(
    'cards: stranger sets on a card',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_set',
    {
      type: 'photo',
      stamp_start: null,
      stamp_end: '{{now+1h}}',
      card: 'main',
    },
  ),
  rpc(
    'cards: stranger reads members',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_members',
    {
      card: null,
    },
  ),
  rpc(
    'cards: anon invites',
    'tests/security/cards-matrix.test.ts',
    undefined,
    'namecard_member_invite',
    {
      role: 'owner',
      card: null,
    },
  ),
  rpc(
    'cards: guessed invitation',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_member_accept',
    {
      code: `nci_${'A'.repeat(32)}`,
    },
  ),
  rpc(
    'tokens: malformed token',
    'tests/security/tokens.test.ts',
    undefined,
    'namecard_token_status',
    {
      token: 'not-a-token',
    },
  ),
  rpc('tokens: unknown token', 'tests/security/tokens.test.ts', undefined, 'namecard_token_set', {
    token: `nct_${'x'.repeat(32)}`,
    type: 'photo',
    stamp_start: null,
    stamp_end: '{{now+1h}}',
  }),
  read('exposure: auth.users', 'tests/security/auth-exposure.test.ts', undefined, 'users?select=*'),
  read(
    'exposure: private table',
    'tests/security/auth-exposure.test.ts',
    'owner',
    'namecard_owner?select=*',
  ),
  {
    name: 'exposure: other schema',
    from: 'tests/security/auth-exposure.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/users?select=*',
    headers: { apikey: '{{anonKey}}', 'accept-profile': 'auth' },
  },
  {
    name: 'forged: token signed with another secret',
    from: 'tests/security/forged-role.test.ts',
    sender: 'supabase-js',
    as: 'forged',
    method: 'GET',
    path: '/rest/v1/namecard?select=id',
  },
  {
    name: 'forged: expired token',
    from: 'tests/security/password-change.test.ts',
    sender: 'supabase-js',
    as: 'expired',
    method: 'GET',
    path: '/rest/v1/namecard?select=id',
  },
  ...(['roleAuthenticator', 'rolePostgres', 'roleUnknown'] as const).flatMap((as) => [
    read(`forged: ${as} reads`, 'tests/security/forged-role.test.ts', as, 'namecard?select=*'),
    {
      name: `forged: ${as} deletes`,
      from: 'tests/security/forged-role.test.ts',
      sender: 'supabase-js' as const,
      as,
      method: 'DELETE' as const,
      path: '/rest/v1/namecard?id=eq.1',
    },
    {
      name: `forged: ${as} inserts`,
      from: 'tests/security/forged-role.test.ts',
      sender: 'supabase-js' as const,
      as,
      method: 'POST' as const,
      path: '/rest/v1/namecard',
      body: { type: 'photo', stamp_end: '{{now+1h}}' },
    },
  ]),
  read(
    'exposure: created_by embedded',
    'tests/security/auth-exposure.test.ts',
    undefined,
    'namecard?select=*,created_by(*)',
  ),
  {
    name: 'rpc: filter on a column the select leaves out',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'browser',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_go?card=main&select=id&type=eq.photo&apikey={{anonKey}}',
  },
  {
    name: 'rpc: filter on a selected column',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'browser',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_go?card=main&select=id,type&type=eq.photo&apikey={{anonKey}}',
  },
  {
    name: 'rows: a read past db-max-rows',
    from: 'namecard list --limit (supabase/config.toml max_rows)',
    sender: 'supabase-js',
    method: 'GET',
    path: '/rest/v1/namecard?select=id&order=id.asc',
    headers: { prefer: 'count=exact' },
    before: `insert into public.namecard (type, stamp_start, stamp_end)
      select 'main', 1000000000000 + g, 1000000000001 + g from generate_series(1, 1000) as g`,
  },
  read(
    'rows: a limit past db-max-rows',
    'namecard list --limit 5000',
    'owner',
    'namecard?select=id&order=id.desc&limit=5000',
  ),
  {
    name: 'forged: token that is no JWT',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id',
    headers: { apikey: '{{anonKey}}', authorization: 'Bearer not-a-jwt' },
  },
  {
    name: 'forged: publishable key as bearer',
    from: 'tests/emulator/keys.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard_active?select=id',
    headers: { apikey: 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH' },
  },
  {
    name: 'form: bad filter',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?stamp_end=greater.5',
    headers: { apikey: '{{anonKey}}' },
  },
  read(
    'form: unknown column read',
    'tests/conformance/rest.test.ts',
    undefined,
    'namecard?select=colour',
  ),
  read(
    'form: negative limit',
    'tests/security/form-fields.test.ts',
    undefined,
    'namecard?select=id&limit=-1',
  ),
  {
    name: 'form: count past the end',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id&offset=1000',
    headers: { apikey: '{{anonKey}}', prefer: 'count=exact' },
  },
  {
    name: 'form: count and range',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id&order=id.asc',
    headers: { apikey: '{{anonKey}}', prefer: 'count=exact', range: '0-1' },
  },
  {
    name: 'form: HEAD of the lookup',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'HEAD',
    path: `/rest/v1/namecard_active?select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'form: single object of many',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id',
    headers: { apikey: '{{anonKey}}', accept: 'application/vnd.pgrst.object+json' },
  },
  {
    name: 'body: invalid JSON',
    from: 'tests/security/body-limits.test.ts',
    sender: 'raw',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_count_visit',
    headers: { apikey: '{{anonKey}}', 'content-type': 'application/json' },
    body: '{"via":',
  },
  {
    name: 'body: deep JSON to a function',
    from: 'tests/conformance/visits.test.ts',
    sender: 'raw',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_count_visit?apikey={{anonKey}}',
    headers: { 'content-type': 'application/json' },
    body: `${'['.repeat(2000)}${']'.repeat(2000)}`,
  },
  {
    name: 'body: wrong content type',
    from: 'tests/security/early-refusal.test.ts',
    sender: 'raw',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_count_visit',
    headers: { apikey: '{{anonKey}}', 'content-type': 'application/xml' },
    body: '<via>qr</via>',
  },
  {
    name: 'rpc: PATCH on a function',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'raw',
    method: 'PATCH',
    path: '/rest/v1/rpc/namecard_go',
    headers: { apikey: '{{anonKey}}', 'content-type': 'application/json' },
    body: '{}',
  },
  rpc('rpc: unknown function', 'tests/conformance/rpc.test.ts', undefined, 'namecard_nothing', {
    a: 1,
  }),
  rpc(
    'rpc: function anon may not run',
    'tests/security/anon-inventory.test.ts',
    undefined,
    'namecard_visit_days',
    {
      day_starts: ['{{now-1d}}', '{{now}}'],
    },
  ),
  rpc('rpc: instant too early', 'tests/security/round5.test.ts', undefined, 'namecard_preview', {
    at_ms: ['{{now-3d}}'],
  }),
  {
    name: 'rpc: writing function by GET',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_count_visit?via=qr',
    headers: { apikey: '{{anonKey}}' },
  },
];

/**
 * Every bounded entry of anon's inventory called over HTTP with its extreme arguments
 * (tests/security/anon-calls.ts, which the anon flood and cost tests use), as anon.
 * @param now epoch ms: the instant the calls' bounds are taken from
 */
export function anonAttacks(now: number): CorpusRequest[] {
  const requests: CorpusRequest[] = [];
  for (const [entry, calls] of Object.entries(anonCalls(now))) {
    for (const call of calls) {
      if (!call.http) continue;
      requests.push({
        name: `anon: ${entry} ${call.label}`,
        from: 'tests/security/anon-calls.ts',
        sender: 'supabase-js',
        method: call.http.method as CorpusRequest['method'],
        path: `/rest/v1/${call.http.path}`,
        ...(call.http.body === undefined ? {} : { body: call.http.body }),
      });
    }
  }
  return requests;
}
