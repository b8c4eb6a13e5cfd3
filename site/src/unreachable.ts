/**
 * What the owner reads when the API did not answer at all (it is down, or the network is):
 * the server's address and what to do, instead of the browser's own "Failed to fetch".
 *
 * @param url the API's base URL (the site's `supabaseUrl`), no key in it
 * @returns `Cannot reach the server at <url>; try again.`
 */
export function unreachableWords(url: string): string {
  return `Cannot reach the server at ${url.replace(/\/+$/, '')}; try again.`;
}
