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

/** Replaces the current page with a route (no history entry, so Back does not bounce). */
export function goTo(route: Route): void {
  window.location.replace(routeUrl(route));
}
