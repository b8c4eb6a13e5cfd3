// Replaced by the build (`define` in site/vite.config.ts) with the card link, from
// `NAMECARD_SITE_URL` and `NAMECARD_BASE_PATH` (shared/core/card-link.ts). Only /manage reads it.
declare const __NAMECARD_CARD_LINK__: string;

/** The card link this build of the site was made with: its Redirecting.. page, `…/go/`. */
export const CARD_LINK: string = __NAMECARD_CARD_LINK__;
