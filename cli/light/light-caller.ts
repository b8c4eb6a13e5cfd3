import { cardsOf, type CardSummary } from '../../shared/core/cards.js';
import { ApiError } from '../../shared/core/errors.js';
import { storedAccessToken } from '../session/access-token.js';
import {
  ciCredentials,
  emailWithoutPassword,
  readStoredState,
  type CliConfig,
} from '../session/settings.js';
import type { CallerRest, LightCredential } from '../transport/light-rest.js';

// The run's caller as the light path can make it, without conf or supabase-js: a card token
// (NAMECARD_TOKEN), or the stored access token while it is valid. CI credentials and a session
// whose access token must be refreshed first are the program's (cli/session/caller.ts), which
// then makes the same calls through supabase-js.

/**
 * Who the light path calls as: the card token or the stored access token; `signed out` with
 * neither and nothing to sign in with; `program` when only the program can sign in (CI
 * credentials, NAMECARD_EMAIL without a password, a session whose access token is due for a
 * refresh or was refused in this process).
 */
export function lightCaller(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): LightCredential | 'signed out' | 'program' {
  if (config.cardToken !== undefined) return { cardToken: config.cardToken };
  if (ciCredentials(env)) return 'program';
  if (readStoredState(env).session?.api_url !== config.supabaseUrl) {
    return emailWithoutPassword(env) ? 'program' : 'signed out';
  }
  const accessToken = storedAccessToken(config, env);
  return accessToken === undefined ? 'program' : { accessToken };
}

/**
 * The caller's cards (`namecard_cards()`), by one light GET, as shared/supabase/cards.ts's
 * listCards reads them.
 *
 * @throws ApiError with the server's answer (a refused token: 401); NetworkError, TimeoutError
 */
export async function lightCards(rest: CallerRest): Promise<CardSummary[]> {
  const { data, status } = await rest.read('rpc/namecard_cards', {});
  return cardsOf(data, status);
}

/** True for the API's 401 to a person's access token: the program refreshes and tries once more. */
export function isRefusedSession(error: unknown, credential: LightCredential): boolean {
  return 'accessToken' in credential && error instanceof ApiError && error.status === 401;
}
