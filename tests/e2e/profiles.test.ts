import { expect, test } from 'vitest';
import { useE2eFixture } from './fixture.js';
import { followGo } from './harness.js';
import { cardRowId, insertEntry } from '../support/entries.js';

// The site is built once (beforeAll) and served as files; everything below changes only rows
// in the database. /go follows a new profile set in force and a changed destination at once,
// with no rebuild, and never a destination whose origin the build does not allow.

const HOUR = 3_600_000;

const useWorld = () => useE2eFixture({ clearRows: true });

const e2e = useWorld();

const setProfile = async (name: string, url: string) => {
  await e2e.emulator.query(
    `insert into public.namecard_profile (card_id, name, label, url) values ($4, $1, $2, $3)
     on conflict (card_id, name) do update set url = excluded.url`,
    [name, name, url, await cardRowId(e2e.emulator)],
  );
};
const setInForce = (type: string) => insertEntry(e2e.emulator, type, null, Date.now() + HOUR);

test('a new profile set in force, then its changed URL, are followed with no rebuild', async () => {
  const { page, site, cards } = e2e;
  await setProfile('shop', `${cards.url}shop`);
  await setInForce('shop');
  const first = await followGo(page, site, cards, 'go-new-profile');
  expect(first.finalUrl).toBe(`${cards.url}shop`);
  expect(first.landing.path).toBe('/shop');

  await setProfile('shop', `${cards.url}sale?from=card`);
  const second = await followGo(page, site, cards);
  expect(second.finalUrl).toBe(`${cards.url}sale?from=card`);
  // Still one lookup, a GET with no preflight.
  expect(second.lookups.map((r) => r.method())).toEqual(['GET']);
});

test('a destination on an origin the build does not allow sends visitors to main, even when it is in the database', async () => {
  const { page, site, cards } = e2e;
  // The same demo pages under another origin (localhost instead of 127.0.0.1): reachable, but
  // not on the build's list (which defaults to the main URL's origin).
  const elsewhere = new URL(cards.url);
  elsewhere.hostname = 'localhost';
  await setProfile('shop', `${elsewhere.href}photo`);
  await setInForce('shop');
  const visit = await followGo(page, site, cards, 'go-disallowed-origin');
  expect(visit.finalUrl).toBe(cards.url);
  expect(visit.heading).toBe('Main profile');
});

test('photo with no URL of its own still follows the build (NAMECARD_PHOTO_PATH), and one of its own wins', async () => {
  const { page, site, cards } = e2e;
  await setInForce('photo');
  expect((await followGo(page, site, cards)).finalUrl).toBe(`${cards.url}photo`);
  await e2e.emulator.query(`update public.namecard_profile set url = $1 where name = 'photo'`, [
    `${cards.url}gallery`,
  ]);
  try {
    expect((await followGo(page, site, cards)).finalUrl).toBe(`${cards.url}gallery`);
  } finally {
    await e2e.emulator.query(`update public.namecard_profile set url = null where name = 'photo'`);
  }
});
