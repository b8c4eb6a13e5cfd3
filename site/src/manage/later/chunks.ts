// The modules /manage fetches after its first draw, for code that asks for them when it needs
// them (parts.tsx holds the components drawn after the first draw). A module here is fetched
// once; asking again answers the same module.

/**
 * The question asked before a change that cannot be taken back (parts.tsx's ConfirmDialog): a
 * page that offers such a change fetches it once drawn, so that the question opens at once.
 */
export const loadConfirmDialog = () => import('../parts/ConfirmDialog.js');

/**
 * `planEntry` and what it needs (Temporal's time-zone arithmetic, the duration parser): the set
 * form asks for it as soon as it is shown, so that it is there by the time the user submits.
 */
export const loadPlan = () => import('../../../../shared/calendar/plan.js');

/** The "Repeat weekly" part of the set form: the series the fields ask for, and its call. */
export const loadWeekly = () => import('../series/weekly.js');

/** The `qrcode` package, which draws the card link's QR code once the page is shown. */
export const loadQrCode = () => import('qrcode');
