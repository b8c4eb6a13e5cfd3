import { ApiError } from '../../shared/core/errors.js';
import { connect, type Connection } from './connect.js';
import { isRefusedAccessToken, usableAccessToken } from './access-token.js';
import { ciCredentials, readStoredState, type CliConfig } from './settings.js';

export { ACCESS_TOKEN_MARGIN_MS, usableAccessToken } from './access-token.js';

// The owner's writes (`set`, `end`, `cancel`) with the stored access token: while it is valid,
// a write is one request and needs neither conf (whose validation library costs ~100 ms to
// load) nor a refresh. session.ts, which loads conf, is imported only when a refresh is due.

/** A client signed in as the owner (as session.ts's Owner). */
type Owner = Connection;

/** A way to run the owner's writes: see {@link requireWriter}. */
export interface OwnerWriter {
  /**
   * Runs `act` once with a client signed in as the owner, and returns what it returns. When
   * the client used the stored access token and the API refused it with 401 (it was revoked
   * or expired early), the session is refreshed and `act` runs once more, only then: a 401
   * comes before the database runs anything (PostgREST checks the token first, and any
   * error rolls the call's transaction back), so nothing was written and sending the write
   * again cannot store it twice. Every other failure, a time-out above all ("outcome
   * unknown"), is passed on and never sent again.
   */
  run<T>(act: (owner: Owner) => Promise<T>): Promise<T>;
}

/** A writer over a client that was just signed in: nothing to refresh, `act` runs once. */
export function writerFor(owner: Owner): OwnerWriter {
  return { run: (act) => act(owner) };
}

/**
 * The owner's writer (for `set`, `end` and `cancel`): with CI credentials, a sign-in for this
 * run; with a stored access token valid for more than a minute, no request before the write;
 * else a refresh of the stored session first.
 *
 * @throws SessionError when signed out or expired; ApiError; NetworkError
 */
export async function requireWriter(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OwnerWriter> {
  return onTheCard(await writerOf(config, env), config);
}

/**
 * `writer` refusing a run's card that is none of the user's cards with the card meant and the
 * user's cards (cli/session/cards.ts), as bad input (exit 2), instead of the server's PT404.
 */
function onTheCard(writer: OwnerWriter, config: CliConfig): OwnerWriter {
  const { card } = config;
  if (card === undefined) return writer;
  return {
    run: (act) =>
      writer.run(async (owner) => {
        try {
          return await act(owner);
        } catch (error) {
          const { refineCardError } = await import('./cards.js');
          throw await refineCardError(error, owner, card, config.cardSource ?? '--card');
        }
      }),
  };
}

async function writerOf(config: CliConfig, env: NodeJS.ProcessEnv): Promise<OwnerWriter> {
  // A card token acts as itself: no session to use, refresh or read (cli/session/card-token.ts).
  if (config.token !== undefined) {
    const { tokenConnection } = await import('./card-token.js');
    return writerFor(tokenConnection({ ...config, token: config.token }));
  }
  const stored = ciCredentials(env) ? undefined : readStoredState(env).session;
  if (stored?.api_url === config.supabaseUrl) {
    const token = usableAccessToken(stored);
    if (token) {
      return {
        async run(act) {
          try {
            // The light path has sent the write with this token already and it was refused
            // (401, nothing written): straight to the one refresh and the one more try.
            if (isRefusedAccessToken(token)) throw new ApiError(401, '401', 'refused');
            return await act(connect(config, token));
          } catch (error) {
            if (!(error instanceof ApiError && error.status === 401)) throw error;
            const { currentSession, openStore, restore } = await import('./session.js');
            const { store } = openStore(env);
            // Read again: another run may have rotated the refresh token meanwhile.
            const latest = currentSession(store, config) ?? stored;
            const { client, transport } = await restore(store, config, latest);
            return act({ client, transport });
          }
        },
      };
    }
  }
  const { requireOwner } = await import('./session.js');
  return writerFor(await requireOwner(config, env));
}
