// The accounts every test signs in as: the card's owner and a signed-up account that owns
// nothing. Every emulator a test starts is a fresh database, so one pair serves all of them;
// a test that needs a third account (a guest, an attacker) names it where it is used.

/** An account: the email and password it signs in with. */
export interface Account {
  email: string;
  password: string;
}

/** The card's owner (`startTestEmulator(kind, { owner: OWNER })`, `useCliFixture()`, …). */
export const OWNER = {
  email: 'owner@example.com',
  password: 'correct horse battery staple',
} satisfies Account;

/** A signed-up account that is no owner of the card. */
export const STRANGER = {
  email: 'stranger@example.com',
  password: 'stranger-password-1',
} satisfies Account;
