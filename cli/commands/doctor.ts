import { commandOf } from '../grammar/commander.js';
import { roleAtLeast } from '../../shared/core/cards.js';
import { isDemoKey } from '../../shared/core/config.js';
import { ConfigError } from '../../shared/core/errors.js';
import { isLoopbackHost } from '../../shared/core/loopback.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_FUNCTION } from '../../shared/core/schema-version.js';
import { pagesCheck, SITE_PAGES } from '../doctor/pages.js';
import { out, print, printJson } from '../terminal/output.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import { PROBE_TIMEOUT_MS, startProbes, type Probe } from '../transport/probe.js';

/** How a check came out: `fail` makes the command exit 1; `warn` is worth a look. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of the report (and one element of `--json`'s array). */
export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
}

/** The deploy guide every "what to do" refers to. */
const GUIDE = 'docs/deploy.md';

/** The headers supabase-js sends with the key: a JWT key also as the bearer token. */
function apiHeaders(key: string): Record<string, string> {
  return key.startsWith('sb_') ? { apikey: key } : { apikey: key, Authorization: `Bearer ${key}` };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The `href` of /go's static fallback link (`<a id="target">`), entities decoded. */
function fallbackLink(html: string): string | undefined {
  const href = /<a\b[^>]*\bid="target"[^>]*\bhref="([^"]*)"/i.exec(html)?.[1];
  return href?.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** Whether a response's headers keep the page out of other sites' frames. */
function refusesFraming(headers: Headers): boolean {
  const csp = headers.get('content-security-policy') ?? '';
  const ancestors = /frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim().toLowerCase();
  const xfo = (headers.get('x-frame-options') ?? '').trim().toLowerCase();
  return ancestors === "'none'" || ancestors === "'self'" || xfo === 'deny' || xfo === 'sameorigin';
}

const notChecked = (check: string, because: string): CheckResult => ({
  check,
  status: 'warn',
  detail: `not checked: ${because}`,
});

/**
 * Checks a deployment end to end from the user's settings, in the order a visitor and the
 * card's people depend on it: settings, API, key, schema, sign-ups, the caller and its card,
 * site, /go's fallback, the pages and their files, framing, main site. Every request of the run ends by
 * {@link DOCTOR_TIME_LIMIT_MS} at the latest.
 *
 * @param config the resolved settings (flags, environment, saved at login, defaults)
 * @param env where the session or CI credentials come from
 * @returns one result per check, in order
 */
export async function runChecks(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CheckResult[]> {
  const probes = startProbes();
  try {
    return await checksWith(probes, config, env);
  } finally {
    probes.stop();
  }
}

async function checksWith(
  { probe, signal }: ReturnType<typeof startProbes>,
  config: CliConfig,
  env: NodeJS.ProcessEnv,
): Promise<CheckResult[]> {
  const api = config.supabaseUrl;
  const site = config.siteUrl;
  // Every request that does not depend on another starts now, so the whole run takes about
  // two time-outs at worst (a page, then its files; the API, then the caller's sign-in).
  const settingsProbe = probe(`${api}/auth/v1/settings`, { headers: apiHeaders(config.anonKey) });
  const schemaProbe = probe(`${api}/rest/v1/rpc/${SCHEMA_VERSION_FUNCTION}`, {
    headers: { ...apiHeaders(config.anonKey), Accept: 'application/json' },
  });
  const builtProbe = probe(new URL('namecard.json', site).href);
  const pageProbes = Promise.all(SITE_PAGES.map((path) => probe(new URL(path, site).href)));
  const pages = pageProbes.then((answers) => pagesCheck(site, answers, probe));
  // The owner's main site: only whether it answers, not its page.
  const mainProbe = probe(config.mainUrl, { read: false });

  const settings = await settingsProbe;
  const key = keyCheck(config, settings);
  const keyOk = key.status === 'ok';
  // Why the checks that need the API and the key could not run.
  const blocked = !settings.answered
    ? 'the API did not answer'
    : demoKeyElsewhere(config)
      ? 'SUPABASE_ANON_KEY is the demo key'
      : 'the key was not accepted';
  const [, login, manage, go] = await pageProbes;
  return [
    settingsCheck(config),
    apiCheck(api, settings),
    key,
    keyOk ? schemaCheck(await schemaProbe) : notChecked('schema', blocked),
    keyOk ? signUpsCheck(settings) : notChecked('sign-ups', blocked),
    keyOk ? await callerCheck({ ...config, signal }, env) : notChecked('caller', blocked),
    siteCheck(config, await builtProbe),
    goCheck(config, go!),
    await pages,
    framingCheck(login!, manage!),
    mainUrlCheck(config, await mainProbe),
  ];
}

/** The emulator's demo key against an API that is not on this machine. */
const demoKeyElsewhere = (config: { supabaseUrl: string; anonKey: string }) =>
  isDemoKey(config.anonKey) && !isLoopbackHost(new URL(config.supabaseUrl).hostname);

/** Whether the API answers at all (any HTTP answer of GoTrue's settings). */
function apiCheck(api: string, settings: Probe): CheckResult {
  return settings.answered
    ? { check: 'api', status: 'ok', detail: `${api} answers` }
    : {
        check: 'api',
        status: 'fail',
        detail: `no answer from SUPABASE_URL ${api} (${settings.reason}): check SUPABASE_URL; a free Supabase project is paused after a week without requests: restore it in the dashboard`,
      };
}

/**
 * Whether the anon key is accepted: GoTrue's settings answer 200 with a JSON object. The
 * emulator's demo key is signed with a secret everyone knows: against an API elsewhere it is
 * either refused (a hosted project) or a sign that anyone can make keys for that API.
 */
function keyCheck(config: CliConfig, settings: Probe): CheckResult {
  const api = config.supabaseUrl;
  if (demoKeyElsewhere(config)) {
    return {
      check: 'key',
      status: 'fail',
      detail: `SUPABASE_ANON_KEY is the local emulator's demo key, which only an API on this machine may use, but SUPABASE_URL is ${api}: set SUPABASE_ANON_KEY to that project's anon or publishable key (Project Settings, API Keys)`,
    };
  }
  if (!settings.answered) return notChecked('key', 'the API did not answer');
  if (settings.status === 401 || settings.status === 403) {
    return {
      check: 'key',
      status: 'fail',
      detail: `SUPABASE_ANON_KEY is not accepted by ${api} (HTTP ${settings.status}): copy the project's anon or publishable key from the dashboard (Project Settings, API Keys)`,
    };
  }
  const body = parseJson(settings.text);
  if (settings.status !== 200 || typeof body !== 'object' || body === null) {
    return {
      check: 'key',
      status: 'fail',
      detail: `${api}/auth/v1/settings answered HTTP ${settings.status}, not as Supabase's API does: is SUPABASE_URL the project's API URL (https://<ref>.supabase.co)?`,
    };
  }
  return { check: 'key', status: 'ok', detail: 'SUPABASE_ANON_KEY is accepted' };
}

/** Sign-ups must be off: anyone could otherwise create an account on the project. */
function signUpsCheck(settings: Probe): CheckResult {
  const text = settings.answered ? settings.text : '';
  const disabled = (parseJson(text) as { disable_signup?: unknown } | undefined)?.disable_signup;
  return disabled === true
    ? { check: 'sign-ups', status: 'ok', detail: 'sign-ups are off' }
    : {
        check: 'sign-ups',
        status: 'fail',
        detail:
          'sign-ups are on: anyone may create an account on the project. Turn off "Allow new users to sign up" (Authentication, Sign In / Providers)',
      };
}

/** The main site answers (a warning only: visitors land there, but it is not ours). */
function mainUrlCheck(config: CliConfig, main: Probe): CheckResult {
  return main.answered && main.status < 400
    ? { check: 'main-url', status: 'ok', detail: `${config.mainUrl} answers` }
    : {
        check: 'main-url',
        status: 'warn',
        detail: `NAMECARD_MAIN_URL ${config.mainUrl} ${main.answered ? `answers HTTP ${main.status}` : `does not answer (${main.reason})`}: visitors of the card land there`,
      };
}

/** The settings a deployment cannot do without: unset, they are the local defaults. */
const DEPLOY_SETTINGS = ['SUPABASE_URL', 'NAMECARD_MAIN_URL', 'NAMECARD_SITE_URL'] as const;

/**
 * Warns about the settings that were not given (by a flag, the environment, `.env` or the
 * stored config): the doctor then checks the local defaults, which no visitor can reach. A
 * setting that was given counts as set, whatever its value.
 */
function settingsCheck(config: CliConfig): CheckResult {
  const unset = DEPLOY_SETTINGS.filter((name) => !config.given.has(name));
  return unset.length === 0
    ? { check: 'settings', status: 'ok', detail: `card link ${config.cardLink}` }
    : {
        check: 'settings',
        status: 'warn',
        detail: `${unset.join(', ')} not set: checking the local defaults (set them as the site was built, ${GUIDE})`,
      };
}

function schemaCheck(answer: Probe): CheckResult {
  const check = 'schema';
  if (!answer.answered) {
    return { check, status: 'fail', detail: `no answer (${answer.reason})` };
  }
  const version = answer.status === 200 ? parseJson(answer.text) : undefined;
  const push = `run \`npx supabase db push\` from this version's checkout (${GUIDE})`;
  if (answer.status === 404 || (typeof version === 'string' && version < SCHEMA_VERSION)) {
    const has = typeof version === 'string' ? `is at ${version}` : 'lacks migrations';
    return {
      check,
      status: 'fail',
      detail: `the database ${has}, this namecard needs ${SCHEMA_VERSION}: ${push}`,
    };
  }
  if (typeof version !== 'string') {
    return {
      check,
      status: 'fail',
      detail: `${SCHEMA_VERSION_FUNCTION}() answered HTTP ${answer.status}: ${push}`,
    };
  }
  if (version > SCHEMA_VERSION) {
    return {
      check,
      status: 'warn',
      detail: `the database is at ${version}, newer than this namecard (${SCHEMA_VERSION}): update namecard`,
    };
  }
  return { check, status: 'ok', detail: `the database has every migration (${version})` };
}

/** What a caller's role on a card lets it do, for the check's words. */
const ROLE_WORDS = { owner: 'an owner', editor: 'an editor', viewer: 'a viewer' } as const;

/**
 * Whether the run's caller (a card token, CI credentials or the stored session) may change the
 * run's card, as the server answers who the caller is (`namecard_caller()`) and its cards. Its
 * requests go through the CLI's transport, ended by `config.signal` (the run's deadline).
 */
async function callerCheck(config: CliConfig, env: NodeJS.ProcessEnv): Promise<CheckResult> {
  const check = 'caller';
  try {
    const [{ findCaller }, { fetchCaller }, { listCards }, { runCardOf }] = await Promise.all([
      import('../session/caller.js'),
      import('../../shared/supabase/tokens.js'),
      import('../../shared/supabase/cards.js'),
      import('../session/run-card.js'),
    ]);
    const caller = await findCaller(
      { ...config, timeoutMs: Math.min(config.timeoutMs, PROBE_TIMEOUT_MS) },
      env,
    );
    if (!caller) {
      return {
        check,
        status: 'warn',
        detail:
          'not signed in here: run `namecard login` to check that your account may change your card',
      };
    }
    const [who, cards] = await caller.run(({ client, transport }) =>
      transport.guard(() => Promise.all([fetchCaller(client), listCards(client)])),
    );
    const card = runCardOf(config, cards);
    const role = cards.find((c) => c.slug === card.slug)?.role;
    const name =
      who.kind === 'token'
        ? `the ${who.role} token ${who.name}`
        : who.kind === 'person'
          ? who.email
          : 'the caller';
    if (roleAtLeast(role, 'editor')) {
      return {
        check,
        status: 'ok',
        detail: `${name} is ${ROLE_WORDS[role!]} of the card ${card.slug}`,
      };
    }
    const what = role === undefined ? 'no member of it' : `${ROLE_WORDS[role]} of it`;
    return {
      check,
      status: 'fail',
      detail: `${name} may not change the card ${card.slug}: it is ${what} (needs editor); an owner of the card invites an account with \`namecard member invite\` (the first owner: ${GUIDE})`,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const expired = (error as { name?: string }).name === 'SessionError';
    return { check, status: expired ? 'warn' : 'fail', detail: message };
  }
}

function siteCheck(config: CliConfig, answer: Probe): CheckResult {
  const check = 'site';
  const url = new URL('namecard.json', config.siteUrl).href;
  if (!answer.answered) {
    return {
      check,
      status: 'fail',
      detail: `no answer from NAMECARD_SITE_URL ${config.siteUrl} (${answer.reason})`,
    };
  }
  const built = answer.status === 200 ? parseJson(answer.text) : undefined;
  if (!built || typeof built !== 'object') {
    return {
      check,
      status: 'fail',
      detail: `${url} answered HTTP ${answer.status}, not the site's settings: upload all of dist/site built by this version to NAMECARD_SITE_URL (check NAMECARD_SITE_URL and NAMECARD_BASE_PATH)`,
    };
  }
  const { supabaseUrl, anonKey, schemaVersion } = built as Record<string, unknown>;
  const rebuild = `rebuild with the same settings (npm run build) and upload dist/site (${GUIDE})`;
  if (
    typeof supabaseUrl === 'string' &&
    typeof anonKey === 'string' &&
    URL.canParse(supabaseUrl) &&
    demoKeyElsewhere({ supabaseUrl, anonKey })
  ) {
    return {
      check,
      status: 'fail',
      detail: `the site was built with the local emulator's demo key for SUPABASE_URL ${supabaseUrl}, which is not on this machine: rebuild with SUPABASE_ANON_KEY set to that project's anon or publishable key, and upload dist/site (${GUIDE})`,
    };
  }
  if (supabaseUrl !== config.supabaseUrl) {
    return {
      check,
      status: 'fail',
      detail: `the site was built for SUPABASE_URL ${String(supabaseUrl)}, not ${config.supabaseUrl}: ${rebuild}`,
    };
  }
  if (anonKey !== config.anonKey) {
    return {
      check,
      status: 'fail',
      detail: `the site was built with another SUPABASE_ANON_KEY: ${rebuild}`,
    };
  }
  if (schemaVersion !== SCHEMA_VERSION) {
    return {
      check,
      status: 'warn',
      detail: `the site was built by a namecard for schema ${String(schemaVersion)}, this one is for ${SCHEMA_VERSION}: ${rebuild}`,
    };
  }
  return { check, status: 'ok', detail: `${config.siteUrl} was built for this API and key` };
}

function goCheck(config: CliConfig, answer: Probe): CheckResult {
  const check = 'go-fallback';
  if (!answer.answered || answer.status !== 200) {
    return {
      check,
      status: 'fail',
      detail: `the card link ${config.cardLink} ${answer.answered ? `answers HTTP ${answer.status}` : `does not answer (${answer.reason})`}`,
    };
  }
  const link = fallbackLink(answer.text);
  if (link === undefined) {
    return {
      check,
      status: 'fail',
      detail: `${config.cardLink} is not namecard's Redirecting.. page (no fallback link)`,
    };
  }
  if (link !== config.mainUrl) {
    return {
      check,
      status: 'fail',
      detail: `/go falls back to ${link}, not NAMECARD_MAIN_URL ${config.mainUrl}: rebuild with NAMECARD_MAIN_URL set and upload dist/site`,
    };
  }
  return { check, status: 'ok', detail: `/go falls back to NAMECARD_MAIN_URL ${link}` };
}

function framingCheck(login: Probe, manage: Probe): CheckResult {
  const check = 'framing';
  const pages = { '/login/': login, '/manage/': manage };
  const missing = Object.entries(pages).filter(([, p]) => !p.answered || p.status !== 200);
  if (missing.length > 0) {
    return {
      check,
      status: 'fail',
      detail: `${missing.map(([path, p]) => `${path} ${p.answered ? `answers HTTP ${p.status}` : `does not answer (${p.reason})`}`).join(', ')}: upload all of dist/site`,
    };
  }
  const open = Object.entries(pages)
    .filter(([, p]) => p.answered && !refusesFraming(p.headers))
    .map(([path]) => path);
  return open.length === 0
    ? { check, status: 'ok', detail: '/login/ and /manage/ may not be framed by other sites' }
    : {
        check,
        status: 'warn',
        detail: `the host sends no anti-framing header for ${open.join(' and ')}; only the page's own guard protects them: have the host send the headers of dist/site/_headers (${GUIDE})`,
      };
}

const MARK: Record<CheckStatus, (s: string) => string> = {
  ok: out.green,
  warn: out.yellow,
  fail: out.red,
};

export const doctorCommand = commandOf('doctor', async ({ options }) => {
  let results: CheckResult[];
  try {
    const config = resolveConfig(options);
    results = await runChecks(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    results = [{ check: 'settings', status: 'fail', detail: error.message }];
  }
  if (options.json) {
    printJson(results);
  } else {
    print(
      ...results.map(
        (r) => `${MARK[r.status](r.status.padEnd(4))}  ${r.check.padEnd(11)}  ${r.detail}`,
      ),
    );
  }
  process.exitCode = results.some((r) => r.status === 'fail') ? 1 : 0;
});
