import { commandOf } from '../grammar/commander.js';
import { DOCTOR_PROBE_TIMEOUT_MS } from '../grammar/table.js';
import { DEFAULT_MAIN_URL, DEFAULT_SUPABASE_URL } from '../../shared/core/config.js';
import { DEFAULT_SITE_URL } from '../../shared/core/card-link.js';
import { ConfigError } from '../../shared/core/errors.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_FUNCTION } from '../../shared/core/schema-version.js';
import { out, print, printJson } from '../terminal/output.js';
import {
  ciCredentials,
  readStoredState,
  resolveConfig,
  type CliConfig,
} from '../session/settings.js';

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

type Probe =
  | { answered: true; status: number; headers: Headers; text: string }
  | { answered: false; reason: string };

/**
 * GET `url` once, with {@link DOCTOR_PROBE_TIMEOUT_MS} for the answer and its body. No retries: the
 * doctor reports what a visitor would meet, and says why a request got no answer.
 */
async function probe(url: string, headers: Record<string, string> = {}): Promise<Probe> {
  try {
    const response = await fetch(url, {
      headers,
      redirect: 'follow',
      signal: AbortSignal.timeout(DOCTOR_PROBE_TIMEOUT_MS),
    });
    const text = await response.text();
    return { answered: true, status: response.status, headers: response.headers, text };
  } catch (error) {
    return { answered: false, reason: whyNoAnswer(error) };
  }
}

function whyNoAnswer(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return `no answer within ${DOCTOR_PROBE_TIMEOUT_MS / 1000} s`;
  }
  switch (e.cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return e.cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

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
 * Checks a deployment end to end from the owner's settings, in the order a visitor and the
 * owner depend on it: settings, API, key, schema, sign-ups, owner account, site, /go's
 * fallback, framing, main site.
 *
 * @param config the resolved settings (flags, environment, saved at login, defaults)
 * @param env where the session or CI credentials come from
 * @returns one result per check, in order
 */
export async function runChecks(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CheckResult[]> {
  const api = config.supabaseUrl;
  const site = config.siteUrl;
  // Every request that does not depend on another starts now, so the whole run takes about
  // one time-out at worst.
  const settingsProbe = probe(`${api}/auth/v1/settings`, apiHeaders(config.anonKey));
  const schemaProbe = probe(`${api}/rest/v1/rpc/${SCHEMA_VERSION_FUNCTION}`, {
    ...apiHeaders(config.anonKey),
    Accept: 'application/json',
  });
  const builtProbe = probe(new URL('namecard.json', site).href);
  const goProbe = probe(config.cardLink);
  const loginProbe = probe(new URL('login/', site).href);
  const manageProbe = probe(new URL('manage/', site).href);
  const mainProbe = probe(config.mainUrl);

  const settings = await settingsProbe;
  const key = keyCheck(api, settings);
  const keyOk = key.status === 'ok';
  // Why the checks that need the API and the key could not run.
  const blocked = settings.answered ? 'the key was not accepted' : 'the API did not answer';
  return [
    settingsCheck(config),
    apiCheck(api, settings),
    key,
    keyOk ? schemaCheck(await schemaProbe) : notChecked('schema', blocked),
    keyOk ? signUpsCheck(settings) : notChecked('sign-ups', blocked),
    keyOk ? await ownerCheck(config, env) : notChecked('owner', blocked),
    siteCheck(config, await builtProbe),
    goCheck(config, await goProbe),
    framingCheck(await loginProbe, await manageProbe),
    mainUrlCheck(config, await mainProbe),
  ];
}

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

/** Whether the anon key is accepted: GoTrue's settings answer 200 with a JSON object. */
function keyCheck(api: string, settings: Probe): CheckResult {
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

/** Warns about settings still at their local defaults, which no visitor can reach. */
function settingsCheck(config: CliConfig): CheckResult {
  const defaults = [
    config.supabaseUrl === DEFAULT_SUPABASE_URL && 'SUPABASE_URL',
    config.mainUrl === DEFAULT_MAIN_URL && 'NAMECARD_MAIN_URL',
    config.cardLink === new URL('go/', DEFAULT_SITE_URL).href && 'NAMECARD_SITE_URL',
  ].filter((name): name is string => Boolean(name));
  return defaults.length === 0
    ? { check: 'settings', status: 'ok', detail: `card link ${config.cardLink}` }
    : {
        check: 'settings',
        status: 'warn',
        detail: `${defaults.join(', ')} not set: checking the local defaults (set them as the site was built, ${GUIDE})`,
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

async function ownerCheck(config: CliConfig, env: NodeJS.ProcessEnv): Promise<CheckResult> {
  const check = 'owner';
  const email =
    ciCredentials(env)?.email ??
    (readStoredState(env).session?.api_url === config.supabaseUrl
      ? readStoredState(env).session?.email
      : undefined);
  try {
    const [{ findOwner }, { canSetCard }] = await Promise.all([
      import('../session/session.js'),
      import('../../shared/supabase/data.js'),
    ]);
    const account = await findOwner(
      { ...config, timeoutMs: Math.min(config.timeoutMs, DOCTOR_PROBE_TIMEOUT_MS) },
      env,
    );
    if (!account) {
      return {
        check,
        status: 'warn',
        detail: 'not signed in here: run `namecard login` to check that your account is an owner',
      };
    }
    return (await account.transport.guard(() => canSetCard(account.client)))
      ? { check, status: 'ok', detail: `${email ?? 'the signed-in account'} is an owner` }
      : {
          check,
          status: 'fail',
          detail: `${email ?? 'the signed-in account'} is signed in but is not an owner: make it one with the SQL in ${GUIDE}`,
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
