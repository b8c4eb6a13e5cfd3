import { siteConfig } from './site-config.js';

// Every route is a folder with its own index.html, so a plain static host serves it.
const ROUTES = {
  home: '',
  login: 'login/',
  manage: 'manage/',
  go: 'go/',
} as const;

export type Route = keyof typeof ROUTES;

/** The path of a route under the site's base path, e.g. `/card/manage/`. */
export function routeUrl(route: Route): string {
  return `${siteConfig.basePath}${ROUTES[route]}`;
}

// The route a replace is already under way to. Logout both signs out (whose listener sends the
// page to /login) and goes to /login itself; a second replace to the same URL would abort the
// first navigation mid-flight (the browser reports it as aborted), so it is asked for once.
let leavingFor: string | null = null;

/**
 * Replaces the current page with a route (no history entry, so Back does not bounce). Asking
 * again for the route already being loaded does nothing.
 */
export function goTo(route: Route): void {
  const url = routeUrl(route);
  if (leavingFor === url) return;
  leavingFor = url;
  window.location.replace(url);
}
