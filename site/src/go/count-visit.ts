// Counts this visit (counts only, never who visited): one CORS-simple POST to the counting function, once the
// decision is known, never in the way of the redirect. What it sends is the channel only
// (`qr`, `nfc` or `link`, from this page's own `?via=`); the server adds the 15-minute bucket
// and the profile it decided itself. Nothing is read or written in the visitor's browser but
// the owner's session key, read to leave the owner's own visits out.

import { sessionStorageKey } from './session-token.js';

/** The SQL function that counts a visit (supabase/migrations/20261123000100_visits.sql). */
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
 * Sends the count: navigator.sendBeacon with a text/plain body (a CORS-simple request that
 * survives the navigation away), or fetch with keepalive and mode no-cors where the beacon is
 * missing or refused. Every failure is silent.
 */
function send(url: string, channel: string): void {
  try {
    if (navigator.sendBeacon?.(url, new Blob([channel], { type: 'text/plain' }))) return;
  } catch {
    // fall through to fetch
  }
  fetch(url, { method: 'POST', body: channel, keepalive: true, mode: 'no-cors' }).catch(
    () => undefined,
  );
}

/**
 * Counts this visit, unless it is the owner's own (a session stored in this browser); a
 * prerendered page counts only once it is shown (`prerenderingchange`). A page that runs no
 * script (a link preview bot) never gets here.
 *
 * @param config the API URL and the public anon key (sent as `?apikey=`, as the lookup does)
 */
export function countVisit(config: { supabaseUrl: string; anonKey: string }): void {
  if (ownersBrowser(config.supabaseUrl)) return;
  const url = `${config.supabaseUrl}/rest/v1/rpc/${COUNT_VISIT_FUNCTION}?apikey=${encodeURIComponent(config.anonKey)}`;
  const channel = visitChannel(window.location.search);
  const doc = document as Document & { prerendering?: boolean };
  if (doc.prerendering) {
    doc.addEventListener('prerenderingchange', () => send(url, channel), { once: true });
  } else {
    send(url, channel);
  }
}
