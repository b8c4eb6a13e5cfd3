import { MAIN_CARD } from '../../shared/core/cards.js';
import { TOKEN_HEADER } from '../../shared/core/tokens.js';
import {
  BENCH_TOKENS,
  callerCalls,
  type Caller,
  type CallerIds,
} from '../security/caller-calls.js';

// The requests the product sends to /rest/v1, each recorded once as method, path, headers and
// body, and the attacks of the security suites: what tests/conformance/differential.test.ts
// sends to the emulator's own REST layer (PGlite) and to PostgREST (PostgreSQL) from the same
// data. `{{name}}` is a placeholder filled at run time, per server: `{{anonKey}}`, an access token
// (`{{owner}}`, `{{editor}}`, `{{viewer}}`, `{{stranger}}`), an instant (`{{now+2h}}`: epoch ms
// from the test's start, the same for both servers) or a value an earlier answer gave
// (`capture`: an invitation code, a card token's secret). A card token is a caller of its own:
// its secret travels in the header x-namecard-token beside the anon key, with no session.

/** Who sends a request, and so which headers it carries. */
export type Sender =
  /**
   * supabase-js (the CLI's program, /manage, /login): apikey, the session's access token as the
   * bearer (the anon key with none, as for a card token), profile headers.
   */
  | 'supabase-js'
  /**
   * The CLI's light path (node:http): apikey, profile headers, and the access token as the
   * bearer only for a person (a card token's request carries none).
   */
  | 'light'
  /**
   * A plain fetch of a lookup (/go, `namecard status`, /manage's status): CORS-simple, the key as
   * `?apikey=`, the access token as the bearer only for a person signed in.
   */
  | 'browser'
  /** An attacker's or a probe's hand-made request: exactly the headers given. */
  | 'raw';

/** One recorded request. */
export interface CorpusRequest {
  /** Unique; docs/emulator.md lists a known difference by it. */
  name: string;
  /** Where it comes from: the command, page or security suite that sends it. */
  from: string;
  sender: Sender;
  /** The access token placeholder of the person it is sent as, or none (anon, a card token). */
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
  /** Below the API URL, with the query string, e.g. `/rest/v1/rpc/namecard_go?card=main`. */
  path: string;
  /** The request's own headers: a card token's x-namecard-token, a Prefer, a hand-made set. */
  headers?: Record<string, string>;
  /** A JSON body (stringified as supabase-js does), or the raw text of one. */
  body?: unknown;
  /** Placeholders this request's answer fills for later requests: name → field of its body. */
  capture?: Record<string, string>;
  /** SQL run as the superuser on both servers before the request (data no API call makes). */
  before?: string;
}

/** The card ids the recorded requests filter on: main, made by the migrations, then studio. */
const MAIN_ID = 1;
const STUDIO_ID = 2;

const ACTIVE = 'id,type,stamp_start,stamp_end,url';
const STATUS = 'now,active,timeline,labels,url,series_ahead';
const OWNER_COLUMNS =
  'id,type,stamp_start,stamp_end,created_at,created_by,stopped_at,stop_kind,planned_end';
const PROFILE_COLUMNS = 'name,label,url,removed_at';
const SERIES_COLUMNS =
  'id,type,weekdays,start_time,end_time,time_zone,first_date,last_date,stopped_at';

type Who = CorpusRequest['as'];

/** The headers of a card token's request: its secret (or a placeholder for it). */
const token = (secret: string) => ({ [TOKEN_HEADER]: secret });

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

/** A supabase-js `.rpc(fn, {}, { get: true })`: a read of a function by GET. */
const rpcRead = (name: string, from: string, as: Who, fn: string): CorpusRequest => ({
  name,
  from,
  sender: 'supabase-js',
  ...(as ? { as } : {}),
  method: 'GET',
  path: `/rest/v1/rpc/${fn}`,
});

/** A supabase-js read of a table. */
const read = (name: string, from: string, as: Who, query: string): CorpusRequest => ({
  name,
  from,
  sender: 'supabase-js',
  ...(as ? { as } : {}),
  method: 'GET',
  path: `/rest/v1/${query}`,
});

/** `request` made by a card token (its secret or a placeholder for it) instead of a person. */
const byToken = (request: CorpusRequest, secret: string): CorpusRequest => {
  const { as: _person, ...rest } = request;
  return { ...rest, headers: { ...request.headers, ...token(secret) } };
};

/** A lookup as shared/core/lookup.ts fetches it (lookupUrl): the card's slug, the key in the URL. */
const lookup = (
  name: string,
  from: string,
  fn: 'namecard_go' | 'namecard_status',
  card: string,
  as?: Who,
): CorpusRequest => ({
  name,
  from,
  sender: 'browser',
  ...(as ? { as } : {}),
  method: 'GET',
  path: `/rest/v1/rpc/${fn}?card=${card}&select=${fn === 'namecard_go' ? ACTIVE : STATUS}&apikey={{anonKey}}`,
});

/** /go's visit count (site/src/go/count-visit.ts): a form POST with no preflight. */
const countVisit = (name: string, form: string): CorpusRequest => ({
  name,
  from: '/go (site/src/go/count-visit.ts)',
  sender: 'browser',
  method: 'POST',
  path: '/rest/v1/rpc/namecard_count_visit?apikey={{anonKey}}',
  headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
  body: form,
});

/** The card's entries as listEntries reads them (shared/supabase/data.ts). */
const entries = (cardId: number, extra = '') =>
  `namecard?select=${OWNER_COLUMNS}&card_id=eq.${cardId}${extra}&order=id.desc`;

/** The product's requests, in the order they are sent (writes change what later ones read). */
export const PRODUCT_REQUESTS: CorpusRequest[] = [
  // /go, as a visitor's browser sends it: the card's lookup, the visit count.
  lookup(
    'go: lookup of main, nothing in force',
    '/go (a bare /go/ is main)',
    'namecard_go',
    'main',
  ),
  lookup('go: lookup of an unknown card', '/go/?c=nobody', 'namecard_go', 'nobody'),
  countVisit('go: visit count of main', 'via=qr&card=main'),
  countVisit('go: visit count of an unknown card', 'via=nfc&card=nobody'),
  // The owner at the terminal (the program's supabase-js calls, the light path) and on /manage.
  rpcRead(
    'cli: cards',
    'card choice (listCards), namecard card list, /manage',
    'owner',
    'namecard_cards',
  ),
  rpcRead('cli: whoami', 'namecard whoami (fetchCaller)', 'owner', 'namecard_caller'),
  {
    name: 'cli: cards (light)',
    from: 'card choice on the light path (cli/light/light-caller.ts)',
    sender: 'light',
    as: 'owner',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_cards',
  },
  read(
    'cli: profiles',
    'namecard profile list, namecard set, /manage (listProfiles)',
    'owner',
    `namecard_profile?select=${PROFILE_COLUMNS}&card_id=eq.${MAIN_ID}&removed_at=is.null&order=name.asc`,
  ),
  read(
    'cli: profiles with the removed',
    'namecard stats, namecard profile list --removed, /manage visits',
    'owner',
    `namecard_profile?select=${PROFILE_COLUMNS}&card_id=eq.${MAIN_ID}&order=name.asc`,
  ),
  read(
    'cli: labels',
    'a write naming added profiles (completeLabels, labelQuery)',
    'owner',
    `namecard_profile?select=${PROFILE_COLUMNS}&card_id=eq.${MAIN_ID}&name=in.(main,photo)`,
  ),
  rpc('cli: set photo', 'namecard set photo …', 'owner', 'namecard_set', {
    type: 'photo',
    stamp_start: null,
    stamp_end: '{{now+2h}}',
    card: MAIN_CARD,
  }),
  {
    name: 'cli: set later (light)',
    from: 'namecard set main --from … (cli/light/caller-light.ts)',
    sender: 'light',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_set',
    body: { type: 'main', stamp_start: '{{now+3h}}', stamp_end: '{{now+4h}}', card: MAIN_CARD },
  },
  lookup('cli: status', 'namecard status (readStatus)', 'namecard_status', 'main'),
  lookup(
    'manage: status',
    '/manage (fetchStatus with the session)',
    'namecard_status',
    'main',
    'owner',
  ),
  lookup('go: lookup of main, an entry in force', '/go', 'namecard_go', 'main'),
  lookup(
    "go: the owner's lookup of main",
    '/go in the owner’s browser',
    'namecard_go',
    'main',
    'owner',
  ),
  read('cli: list', 'namecard list, /manage history', 'owner', `${entries(MAIN_ID)}&limit=20`),
  read(
    'cli: entries not ended',
    'namecard calendar, /manage (listEntries endingAfter)',
    'owner',
    `${entries(MAIN_ID, '&stamp_end=gt.{{now}}')}&limit=1000`,
  ),
  {
    name: 'cli: preview',
    from: 'namecard preview (cli/commands/preview.ts)',
    sender: 'raw',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_preview',
    headers: {
      apikey: '{{anonKey}}',
      authorization: 'Bearer {{anonKey}}',
      'content-type': 'application/json',
    },
    body: { at_ms: ['{{now+1h}}', '{{now+3h}}'], card: MAIN_CARD },
  },
  rpc('cli: visit days', 'namecard stats, /manage visits', 'owner', 'namecard_visit_days', {
    day_starts: ['{{now-1d}}', '{{now+1h}}'],
    card: MAIN_CARD,
  }),
  rpc('cli: cancel', 'namecard cancel 2', 'owner', 'namecard_cancel', {
    entry_id: 2,
    card: MAIN_CARD,
  }),
  rpc('cli: cancel again', 'namecard cancel 2 (twice)', 'owner', 'namecard_cancel', {
    entry_id: 2,
    card: MAIN_CARD,
  }),
  rpc('cli: cancel unknown', 'namecard cancel 999', 'owner', 'namecard_cancel', {
    entry_id: 999,
    card: MAIN_CARD,
  }),
  rpc('cli: end now', 'namecard end', 'owner', 'namecard_end_now', { card: MAIN_CARD }),
  {
    name: 'cli: end now, nothing in force (light)',
    from: 'namecard end, again (cli/light/caller-light.ts)',
    sender: 'light',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/rpc/namecard_end_now',
    body: { card: MAIN_CARD },
  },
  rpc('cli: set series', 'namecard series add, /manage weekly', 'owner', 'namecard_set_series', {
    type: 'photo',
    weekdays: [1, 3],
    start_time: '09:00',
    end_time: '10:30',
    time_zone: 'Europe/Berlin',
    first_date: '2031-01-01',
    last_date: null,
    card: MAIN_CARD,
  }),
  read(
    'cli: series',
    'namecard series list, /manage (listSeries)',
    'owner',
    `namecard_series?select=${SERIES_COLUMNS}&card_id=eq.${MAIN_ID}&order=id.desc&limit=1000`,
  ),
  read(
    'cli: series stops',
    'namecard series list, /manage (listSeries)',
    'owner',
    `namecard_series_stop?select=series_id,occurrence_start,stopped_at&card_id=eq.${MAIN_ID}&limit=10000`,
  ),
  rpc(
    'manage: occurrences',
    '/manage timeline, namecard calendar',
    'owner',
    'namecard_occurrences',
    {
      card: MAIN_CARD,
      from_ms: '{{now}}',
      to_ms: '{{now+7d}}',
    },
  ),
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
      card: MAIN_CARD,
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
    body: { name: 'talk', label: 'Talk', url: 'https://card.example/talk', card_id: MAIN_ID },
  },
  {
    name: 'cli: add profile again',
    from: 'namecard profile add (a name taken)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: `/rest/v1/namecard_profile?select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { name: 'talk', label: 'Talk', url: 'https://card.example/talk', card_id: MAIN_ID },
  },
  {
    name: 'manage: edit profile',
    from: '/manage profile edit, namecard profile edit (editProfile)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'PATCH',
    path: `/rest/v1/namecard_profile?name=eq.talk&card_id=eq.${MAIN_ID}&removed_at=is.null&select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { label: 'Talks' },
  },
  rpc('cli: remove profile', 'namecard profile remove', 'owner', 'namecard_remove_profile', {
    profile_name: 'talk',
    card: MAIN_CARD,
  }),
  {
    name: 'cli: add removed profile back',
    from: 'namecard profile add (a removed name)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'PATCH',
    path: `/rest/v1/namecard_profile?name=eq.talk&card_id=eq.${MAIN_ID}&removed_at=not.is.null&select=${PROFILE_COLUMNS}`,
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
    { slug: 'studio', name: null },
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
  rpc('cli: invite to revoke', 'namecard member invite', 'owner', 'namecard_member_invite', {
    role: 'viewer',
    card: 'studio',
  }),
  rpc('cli: open invitations', 'namecard member invites', 'owner', 'namecard_member_invites', {
    card: 'studio',
  }),
  rpc(
    'cli: revoke an invitation',
    'namecard member revoke-invite 3',
    'owner',
    'namecard_member_revoke_invite',
    { invitation_id: 3, card: 'studio' },
  ),
  rpc(
    'cli: accept (editor)',
    'namecard member accept, /manage',
    'editor',
    'namecard_member_accept',
    {
      code: '{{editorCode}}',
    },
  ),
  rpc(
    'cli: accept (viewer)',
    'namecard member accept, /manage',
    'viewer',
    'namecard_member_accept',
    {
      code: '{{viewerCode}}',
    },
  ),
  rpc(
    'cli: accept a used code',
    'namecard member accept (again)',
    'stranger',
    'namecard_member_accept',
    { code: '{{editorCode}}' },
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
    { type: 'photo', stamp_start: null, stamp_end: '{{now+2h}}', card: 'studio' },
  ),
  lookup('cli: status of a card', 'namecard status --card studio', 'namecard_status', 'studio'),
  lookup('go: lookup of studio', '/go/?c=studio', 'namecard_go', 'studio'),
  rpcRead("cli: a viewer's cards", 'card choice (listCards)', 'viewer', 'namecard_cards'),
  read(
    'cli: list of a card',
    'namecard list --card studio',
    'editor',
    `${entries(STUDIO_ID)}&limit=20`,
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
    { email: 'owner@differential.test', card: 'studio' },
  ),
  // Card tokens: made and listed by an owner, then a script's calls with the token alone.
  {
    ...rpc(
      'cli: token create',
      'namecard token create, /manage tokens',
      'owner',
      'namecard_token_create',
      {
        name: 'ci',
        role: 'editor',
        card: 'studio',
        valid_seconds: 86400,
      },
    ),
    capture: { cardToken: 'token' },
  },
  {
    ...rpc(
      'cli: viewer token create',
      'namecard token create --role viewer',
      'owner',
      'namecard_token_create',
      { name: 'watch', role: 'viewer', card: 'studio' },
    ),
    capture: { viewerToken: 'token' },
  },
  rpc('cli: tokens', 'namecard token list, /manage tokens', 'owner', 'namecard_tokens', {
    card: 'studio',
  }),
  byToken(
    rpcRead('token: whoami', 'NAMECARD_TOKEN=… namecard whoami', undefined, 'namecard_caller'),
    '{{cardToken}}',
  ),
  byToken(
    rpcRead('token: cards', 'NAMECARD_TOKEN=… card choice', undefined, 'namecard_cards'),
    '{{cardToken}}',
  ),
  byToken(
    rpc('token: set', 'NAMECARD_TOKEN=… namecard set', undefined, 'namecard_set', {
      type: 'main',
      stamp_start: '{{now+6h}}',
      stamp_end: '{{now+7h}}',
      card: 'studio',
    }),
    '{{cardToken}}',
  ),
  byToken(
    read(
      'token: list',
      'NAMECARD_TOKEN=… namecard list',
      undefined,
      `${entries(STUDIO_ID)}&limit=20`,
    ),
    '{{cardToken}}',
  ),
  byToken(
    {
      name: 'token: profiles (light)',
      from: 'NAMECARD_TOKEN=… namecard profile list (cli/light/caller-light.ts)',
      sender: 'light',
      method: 'GET',
      path: `/rest/v1/namecard_profile?select=${PROFILE_COLUMNS}&card_id=eq.${STUDIO_ID}&removed_at=is.null&order=name.asc`,
    },
    '{{cardToken}}',
  ),
  byToken(
    {
      name: 'token: end now (light)',
      from: 'NAMECARD_TOKEN=… namecard end (cli/light/caller-light.ts)',
      sender: 'light',
      method: 'POST',
      path: '/rest/v1/rpc/namecard_end_now',
      body: { card: 'studio' },
    },
    '{{cardToken}}',
  ),
  byToken(
    rpc('token: visit days', 'NAMECARD_TOKEN=… namecard stats', undefined, 'namecard_visit_days', {
      day_starts: ['{{now-1d}}', '{{now+1h}}'],
      card: 'studio',
    }),
    '{{viewerToken}}',
  ),
  byToken(
    rpc('token: viewer sets', 'NAMECARD_TOKEN=… namecard set (viewer)', undefined, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: '{{now+2h}}',
      card: 'studio',
    }),
    '{{viewerToken}}',
  ),
  rpc(
    'cli: token revoke',
    'namecard token revoke, /manage tokens',
    'owner',
    'namecard_token_revoke',
    {
      name: 'ci',
      card: 'studio',
    },
  ),
  byToken(
    rpcRead('token: revoked', 'NAMECARD_TOKEN=… (revoked)', undefined, 'namecard_cards'),
    '{{cardToken}}',
  ),
  rpc('cli: remove card', 'namecard card remove', 'owner', 'namecard_card_remove', {
    card: 'studio',
  }),
  rpc(
    'cli: a removed card',
    'namecard series list --card studio (removed)',
    'editor',
    'namecard_occurrences',
    { card: 'studio', from_ms: '{{now}}', to_ms: '{{now+7d}}' },
  ),
  lookup('go: lookup of a removed card', '/go/?c=studio (removed)', 'namecard_go', 'studio'),
  byToken(
    rpcRead(
      'token: of a removed card',
      'NAMECARD_TOKEN=… (card removed)',
      undefined,
      'namecard_cards',
    ),
    '{{viewerToken}}',
  ),
  // doctor's probe and /login (a session's first read).
  {
    name: 'doctor: schema version',
    from: 'namecard doctor (cli/commands/doctor.ts)',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_schema_version',
    headers: {
      apikey: '{{anonKey}}',
      authorization: 'Bearer {{anonKey}}',
      accept: 'application/json',
    },
  },
  rpcRead('login: cards after sign-in', '/login then /manage', 'stranger', 'namecard_cards'),
];

/** The headers of a hand-made request as the owner. */
const OWNER_RAW = { apikey: '{{anonKey}}', authorization: 'Bearer {{owner}}' };

/**
 * The security suites' attacks: a stranger, anon, a forged or expired access token, a wrong card
 * token, hostile bodies.
 */
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
  read(
    'rls: stranger reads visits',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_visit?select=*',
  ),
  {
    name: 'rls: anon inserts',
    from: 'tests/security/early-refusal.test.ts',
    sender: 'supabase-js',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    name: 'rls: stranger inserts',
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    as: 'stranger',
    method: 'POST',
    path: '/rest/v1/namecard?select=*',
    headers: { prefer: 'return=representation' },
    body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    name: 'rls: owner inserts an entry directly',
    from: 'tests/security/cards-matrix.test.ts',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    name: 'rls: stranger adds a profile to main',
    from: 'tests/security/foreign-card-writes.test.ts',
    sender: 'supabase-js',
    as: 'stranger',
    method: 'POST',
    path: `/rest/v1/namecard_profile?select=${PROFILE_COLUMNS}`,
    headers: { prefer: 'return=representation' },
    body: { card_id: MAIN_ID, name: 'evil', label: 'Evil', url: 'https://evil.example/' },
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
    from: 'tests/security/rls-matrix.test.ts',
    sender: 'supabase-js',
    as: 'owner',
    method: 'POST',
    path: '/rest/v1/namecard',
    body: {
      card_id: MAIN_ID,
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
    body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}', colour: 'red' },
  },
  rpc(
    'cards: stranger sets on a card',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_set',
    { type: 'photo', stamp_start: null, stamp_end: '{{now+1h}}', card: MAIN_CARD },
  ),
  rpc(
    'cards: stranger reads members',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_members',
    { card: MAIN_CARD },
  ),
  rpc(
    'cards: anon invites',
    'tests/security/cards-matrix.test.ts',
    undefined,
    'namecard_member_invite',
    { role: 'owner', card: MAIN_CARD },
  ),
  rpc(
    'cards: anon adds a card',
    'tests/security/cards-matrix.test.ts',
    undefined,
    'namecard_card_add',
    { slug: 'by-anon', name: null },
  ),
  rpc(
    'cards: main removed',
    'tests/security/cards-matrix.test.ts',
    'owner',
    'namecard_card_remove',
    {
      card: MAIN_CARD,
    },
  ),
  rpc(
    'cards: guessed invitation',
    'tests/security/cards-matrix.test.ts',
    'stranger',
    'namecard_member_accept',
    { code: `nci_${'A'.repeat(32)}` },
  ),
  rpc(
    'cards: a slug of no card',
    'tests/security/foreign-card-writes.test.ts',
    'owner',
    'namecard_cancel',
    { entry_id: 1, card: 'never-given' },
  ),
  {
    ...rpcRead(
      'tokens: unknown token',
      'tests/security/tokens.test.ts',
      undefined,
      'namecard_cards',
    ),
    headers: token(`nct_${'A'.repeat(32)}`),
  },
  {
    ...rpc('tokens: malformed token', 'tests/security/tokens.test.ts', undefined, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: '{{now+1h}}',
      card: MAIN_CARD,
    }),
    headers: token('hello'),
  },
  {
    name: 'tokens: empty token',
    from: 'tests/security/tokens.test.ts',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/rpc/namecard_status?card=main&select=${STATUS}&apikey={{anonKey}}`,
    headers: token(''),
  },
  {
    name: 'tokens: a wrong token writes a table',
    from: 'tests/security/token-limits.test.ts',
    sender: 'supabase-js',
    method: 'POST',
    path: '/rest/v1/namecard_profile',
    headers: token(`nct_${'B'.repeat(32)}`),
    body: { card_id: MAIN_ID, name: 'evil', label: 'Evil', url: 'https://evil.example/' },
  },
  {
    ...rpc(
      'tokens: a token with a session',
      'tests/security/tokens.test.ts',
      'editor',
      'namecard_end_now',
      {
        card: MAIN_CARD,
      },
    ),
    headers: token(BENCH_TOKENS.editor),
  },
  {
    name: 'tokens: a token writes a table directly',
    from: 'tests/security/tokens.test.ts',
    sender: 'supabase-js',
    method: 'POST',
    path: '/rest/v1/namecard',
    headers: token(BENCH_TOKENS.editor),
    body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}' },
  },
  {
    ...rpc(
      'tokens: a token of another card',
      'tests/security/tokens.test.ts',
      undefined,
      'namecard_end_now',
      {
        card: 'studio',
      },
    ),
    headers: token(BENCH_TOKENS.editor),
  },
  {
    ...rpc(
      'tokens: an editor token makes a token',
      'tests/security/tokens.test.ts',
      undefined,
      'namecard_token_create',
      {
        name: 'x',
        card: MAIN_CARD,
      },
    ),
    headers: token(BENCH_TOKENS.editor),
  },
  {
    ...rpc(
      'tokens: a viewer token cancels',
      'tests/security/tokens.test.ts',
      undefined,
      'namecard_cancel',
      {
        entry_id: 1,
        card: MAIN_CARD,
      },
    ),
    headers: token(BENCH_TOKENS.viewer),
  },
  read('exposure: auth.users', 'tests/security/auth-exposure.test.ts', undefined, 'users?select=*'),
  read(
    'exposure: private table',
    'tests/security/auth-exposure.test.ts',
    'owner',
    'namecard_member?select=*',
  ),
  read(
    'exposure: tokens table',
    'tests/security/tokens.test.ts',
    'owner',
    'namecard_token?select=*',
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
    name: 'exposure: the private schema',
    from: 'tests/security/grants.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard_member?select=*',
    headers: { ...OWNER_RAW, 'accept-profile': 'private' },
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
      body: { card_id: MAIN_ID, type: 'photo', stamp_end: '{{now+1h}}' },
    },
  ]),
  read(
    'exposure: created_by embedded',
    'tests/security/auth-exposure.test.ts',
    'owner',
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
    name: 'rpc: the lookup without its card',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'browser',
    method: 'GET',
    path: `/rest/v1/rpc/namecard_go?select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'rows: a read past db-max-rows',
    from: 'namecard list --limit (supabase/config.toml max_rows)',
    sender: 'supabase-js',
    as: 'owner',
    method: 'GET',
    path: `/rest/v1/namecard?select=id&card_id=eq.${MAIN_ID}&order=id.asc`,
    headers: { prefer: 'count=exact' },
    before: `insert into public.namecard (card_id, type, stamp_start, stamp_end)
      select ${MAIN_ID}, 'main', 1000000000000 + g, 1000000000001 + g
      from generate_series(1, 1000) as g`,
  },
  read(
    'rows: a limit past db-max-rows',
    'namecard list --limit 5000',
    'owner',
    `${entries(MAIN_ID)}&limit=5000`,
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
    path: '/rest/v1/rpc/namecard_go?card=main&select=id',
    headers: { apikey: 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH' },
  },
  {
    name: 'form: bad filter',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?stamp_end=greater.5',
    headers: OWNER_RAW,
  },
  read(
    'form: unknown column read',
    'tests/conformance/rest.test.ts',
    'owner',
    'namecard?select=colour',
  ),
  read(
    'form: negative limit',
    'tests/security/form-fields.test.ts',
    'owner',
    'namecard?select=id&limit=-1',
  ),
  {
    name: 'form: count past the end',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id&offset=5000',
    headers: { ...OWNER_RAW, prefer: 'count=exact' },
  },
  {
    name: 'form: count and range',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id&order=id.asc',
    headers: { ...OWNER_RAW, prefer: 'count=exact', range: '0-1' },
  },
  {
    name: 'form: HEAD of the lookup',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'HEAD',
    path: `/rest/v1/rpc/namecard_go?card=main&select=${ACTIVE}&apikey={{anonKey}}`,
  },
  {
    name: 'form: single object of many',
    from: 'tests/conformance/rest.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/namecard?select=id',
    headers: { ...OWNER_RAW, accept: 'application/vnd.pgrst.object+json' },
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
    'rpc: a members function as anon',
    'tests/security/caller-inventory.test.ts',
    undefined,
    'namecard_visit_days',
    { day_starts: ['{{now-1d}}', '{{now}}'], card: MAIN_CARD },
  ),
  rpc('rpc: instant too early', 'tests/security/round5.test.ts', undefined, 'namecard_preview', {
    at_ms: ['{{now-3d}}'],
    card: MAIN_CARD,
  }),
  {
    name: 'rpc: writing function by GET',
    from: 'tests/conformance/rpc.test.ts',
    sender: 'raw',
    method: 'GET',
    path: '/rest/v1/rpc/namecard_count_visit?via=qr&card=main',
    headers: { apikey: '{{anonKey}}' },
  },
];

/** The headers a caller of tests/security/caller-calls.ts sends its calls with. */
function callerHeaders(caller: Caller): Record<string, string> {
  switch (caller.kind) {
    case 'anon':
      return {};
    case 'token':
      return token(caller.token);
    case 'person':
      throw new Error(`the corpus signs in no ${caller.email}: add the account to the test`);
  }
}

/**
 * Every bounded call of the callers' inventory that the visitors' flood sends over HTTP, with
 * its extreme arguments (tests/security/caller-calls.ts, which the cost and load tests use), as
 * the caller that may make it: anon, or a card token of main (BENCH_TOKENS, which the test
 * stores).
 * @param now epoch ms: the instant the calls' bounds are taken from
 * @param ids the rows the calls' SQL names (only the calls' requests are sent here)
 */
export function callerAttacks(now: number, ids: CallerIds): CorpusRequest[] {
  const requests: CorpusRequest[] = [];
  for (const [entry, calls] of Object.entries(callerCalls(now, ids))) {
    for (const call of calls) {
      if (!call.http) continue;
      requests.push({
        name: `${call.as.kind}: ${entry} ${call.label}`,
        from: 'tests/security/caller-calls.ts',
        sender: 'supabase-js',
        method: call.http.method,
        path: `/rest/v1/${call.http.path}`,
        headers: callerHeaders(call.as),
        ...(call.http.body === undefined ? {} : { body: call.http.body }),
      });
    }
  }
  return requests;
}
