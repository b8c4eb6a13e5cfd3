// The Redirecting.. page's only script. It must stay tiny (under 10 KB gzipped with all it
// loads): no React, no supabase-js; only the shared lookup and target rule.
import { fetchActiveEntry } from '../../../shared/core/lookup.js';
import { targetUrl } from '../../../shared/core/rules.js';
import { siteConfig } from '../site-config.js';
import { storedAccessToken } from './session-token.js';

/** The redirect happens this long after the lookup finished (spec §9). */
const REDIRECT_DELAY_MS = 1500;
/** A backend that does not answer within this time counts as a failure: main site. */
const LOOKUP_TIMEOUT_MS = 4000;

async function chooseTarget(): Promise<string> {
  try {
    const now = Date.now();
    const entry = await fetchActiveEntry({
      supabaseUrl: siteConfig.supabaseUrl,
      anonKey: siteConfig.anonKey,
      accessToken: storedAccessToken(siteConfig.supabaseUrl, now),
      now,
      timeoutMs: LOOKUP_TIMEOUT_MS,
    });
    return targetUrl(entry?.type, siteConfig);
  } catch (error) {
    // Any failure sends the visitor to the main site (spec §2, §8: the error is only logged).
    console.error('namecard: lookup failed, using the main site', error);
    return siteConfig.mainUrl;
  }
}

async function redirect(): Promise<void> {
  const target = await chooseTarget();
  const link = document.getElementById('target');
  if (link instanceof HTMLAnchorElement) link.href = target;
  // When the lookup finished (epoch ms, page clock) and where it leads: read by the browser tests.
  const root = document.documentElement;
  root.dataset.target = target;
  root.dataset.lookupDoneAt = String(performance.timeOrigin + performance.now());
  setTimeout(() => window.location.replace(target), REDIRECT_DELAY_MS);
}

void redirect();
