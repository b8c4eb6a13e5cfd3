import { MAIN_CARD, type CardSummary } from '../../shared/core/cards.js';
import { checkTimeZone, localTimeZone, setHostTimeZone } from '../../shared/core/format.js';
import type { CardStatus, LookupFetch } from '../../shared/core/lookup.js';
import { refuseAccessToken } from '../session/access-token.js';
import { hostTimeZone } from '../session/host-zone.js';
import { needsCards, runCardOf, showingCard } from '../session/run-card.js';
import { print, printJson } from '../terminal/output.js';
import { readStatus, seriesLines, statusJson, timelineLines } from '../terminal/outlook.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import { callerRest } from '../transport/light-rest.js';
import { createLightTransport } from '../transport/transport.js';
import { isRefusedSession, lightCaller, lightCards } from './light-caller.js';

/** The options of `namecard status` (global ones included), as typed. */
export interface StatusOptions {
  json?: boolean;
  /** `--tz <zone>`: the IANA zone the times are shown in (default: this machine's). */
  tz?: string;
  apiUrl?: string;
  timeout?: string;
  card?: string;
}

/**
 * How a status run reads the caller's cards: through the light path's call or the program's
 * client; none when signed out.
 */
export type CardsReader = (() => Promise<CardSummary[]>) | undefined;

/**
 * The run's card and its status: what visitors of that card get now and from now on, read with
 * one GET of `namecard_status` (anyone may read any card's). When the choice needs the caller's
 * cards (a card token; signed in with no card named), they are read at the same time as the
 * status of main, the card most callers act on, and the chosen card's status is read after only
 * when it is not main: the common case costs no extra round trip.
 *
 * @param fetch the transport's fetch, for the status' GET
 * @param readCards the caller's cards; none: signed out
 * @returns the status, and the settings naming the card in the output when they should
 * @throws CardConflictError (exit 2) for a token run naming another card; NetworkError,
 *   TimeoutError, ApiError (exit 1)
 */
export async function statusOf(
  config: CliConfig,
  fetch: LookupFetch,
  readCards: CardsReader,
): Promise<{ status: CardStatus; config: CliConfig }> {
  if (readCards === undefined || !needsCards(config, true)) {
    const card = runCardOf(config);
    return {
      status: await readStatus(config, fetch, card.slug),
      config: showingCard(config, card),
    };
  }
  const likely = config.cardNamed?.slug ?? MAIN_CARD;
  const [cards, likelyStatus] = await Promise.all([readCards(), readStatus(config, fetch, likely)]);
  const card = runCardOf(config, cards);
  const status = card.slug === likely ? likelyStatus : await readStatus(config, fetch, card.slug);
  return { status, config: showingCard(config, card) };
}

/**
 * Prints a status: the timeline in words (then each weekly series in one line with its next
 * start), or one JSON document.
 *
 * @param zone the IANA zone the times are shown in
 */
export function showStatus(
  status: CardStatus,
  options: Pick<StatusOptions, 'json'>,
  config: CliConfig,
  zone: string,
): void {
  if (options.json) printJson(statusJson(status, config));
  else print(...timelineLines(status, config, zone), ...seriesLines(status, zone));
}

/**
 * The zone `status` shows its times in: `--tz`, else the machine's, by name without Intl when it
 * can be found so; its times are then read with Date's local getters (host-zone.ts says why).
 *
 * @throws InputError naming `--tz` (exit 2)
 */
export function statusZone(options: Pick<StatusOptions, 'tz'>): string {
  const host = options.tz === undefined ? hostTimeZone() : undefined;
  setHostTimeZone(host);
  return options.tz === undefined ? (host ?? localTimeZone()) : checkTimeZone(options.tz, '--tz');
}

/**
 * `namecard status`: what visitors of the run's card get now and the coming changes, by the
 * server's clock, without sign-in (no supabase-js, no Temporal). A plain function, not a
 * commander action, so the entry point can run it without loading commander
 * (cli/light/light-lines.ts); the commander command calls it too. The caller (a card token, the
 * stored access token) matters only to choose the card ({@link statusOf}).
 *
 * @returns false when the run is the program's (nothing printed): CI credentials, a session to
 *   refresh first, or a stored access token the API refused (recorded for the program)
 * @throws NetworkError, TimeoutError, ApiError (exit 1); InputError for a bad flag, and
 *   CardConflictError (exit 2)
 */
export async function runStatus(options: StatusOptions): Promise<boolean> {
  const zone = statusZone(options);
  const config = resolveConfig(options);
  const credential = lightCaller(config);
  if (credential === 'program') return false;
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  // Not through `transport.guard`: the light fetch throws its typed error itself outside a
  // guard and `fetchStatus` passes it on as it is, so the error is the same, and the guard's
  // AsyncLocalStorage (on Node 20 it turns on promise hooks for every later promise and
  // callback) is not started for status's requests.
  const rest =
    credential === 'signed out' ? undefined : callerRest(config, credential, transport.fetch);
  let shown: Awaited<ReturnType<typeof statusOf>>;
  try {
    shown = await statusOf(config, transport.fetch, rest && (() => lightCards(rest)));
  } catch (error) {
    if (credential === 'signed out' || !isRefusedSession(error, credential)) throw error;
    refuseAccessToken((credential as { accessToken: string }).accessToken);
    return false;
  }
  showStatus(shown.status, options, shown.config, zone);
  return true;
}
