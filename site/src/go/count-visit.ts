// Counts this visit (counts only, never who visited): one CORS-simple POST to the counting function, once the
// decision is known, never in the way of the redirect. What it sends is the channel only
// (`qr`, `nfc` or `link`, from this page's own `?via=`) and the card (`?c=<slug>`, a bare /go/
// is main); the server adds the 15-minute bucket and the profile it decided itself. Nothing is read
// or written in the visitor's browser but the owner's session key, read to leave the owner's
// own visits out.

import { sessionStorageKey } from './session-token.js';

/** The SQL function that counts a visit of a card named by its slug (supabase/schemas/visits.sql). */
export const COUNT_VISIT_FUNCTION = 'namecard_count_visit';

/** The channel in this page's query: `?via=qr` (the QR code), `?via=nfc` (a tag), else link. */
export function visitChannel(search: string): 'qr' | 'nfc' | 'link' {
  const via = new URLSearchParams(search).get('via');
  return via === 'qr' || via === 'nfc' ? via : 'link';
}

/** True when a supabase session is stored in this browser for the API: the owner's own. */
function ownersBrowser(supabaseUrl: string): boolean {
  try {
    return window.localStorage.getItem(sessionStorageKey(supabaseUrl)) !== null;
  } catch {
    return false;
  }
}

/**
 * What the count sends: a form naming the channel and the card (`via=qr&card=studio`,
 * namecard_count_visit's parameters), a CORS-simple body.
 */
function countBody(channel: string, card: string): URLSearchParams {
  return new URLSearchParams({ via: channel, card });
}

/**
 * Sends the count: navigator.sendBeacon (a CORS-simple request that survives the navigation
 * away), or fetch with keepalive and mode no-cors where the beacon is missing or refused. Every
 * failure is silent.
 */
function send(url: string, channel: string, card: string): void {
  try {
    if (navigator.sendBeacon?.(url, countBody(channel, card))) return;
  } catch {
    // fall through to fetch
  }
  fetch(url, {
    method: 'POST',
    body: countBody(channel, card),
    keepalive: true,
    mode: 'no-cors',
  }).catch(() => undefined);
}

/**
 * Counts this visit, unless it is the owner's own (a session stored in this browser); a
 * prerendered page counts only once it is shown (`prerenderingchange`). A page that runs no
 * script (a link preview bot) never gets here.
 *
 * @param config the API URL and the public anon key (sent as `?apikey=`, as the lookup does)
 * @param card the card's slug (`?c=`; `main` for a bare /go/)
 */
export function countVisit(config: { supabaseUrl: string; anonKey: string }, card: string): void {
  if (ownersBrowser(config.supabaseUrl)) return;
  const url = `${config.supabaseUrl}/rest/v1/rpc/${COUNT_VISIT_FUNCTION}?apikey=${encodeURIComponent(config.anonKey)}`;
  const channel = visitChannel(window.location.search);
  const doc = document as Document & { prerendering?: boolean };
  if (doc.prerendering) {
    doc.addEventListener('prerenderingchange', () => send(url, channel, card), { once: true });
  } else {
    send(url, channel, card);
  }
}
