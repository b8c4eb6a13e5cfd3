import { describe, expect, test } from 'vitest';
import { join, makeCard, person, rpc, type Person } from '../support/cards.js';
import { DB_KINDS } from '../support/emulator.js';
import { useE2eFixture } from './fixture.js';
import { followGo } from './harness.js';
import { cardRowId, insertEntry } from '../support/entries.js';

// Several cards in a real browser: visitors of `/go/?c=<slug>` land on that card's destination
// while a bare `/go/` opens the card main; an editor's set moves the card's link and nothing
// else; an unknown slug lands on the main site after the same 1.5 s and counts nothing. Each
// visit is one CORS-simple GET on a URL fixed by the slug (a bare /go/'s names main), and no
// OPTIONS.

const HOUR = 3_600_000;

describe.each(DB_KINDS)('several cards behind one /go, on %s', (kind) => {
  /** What the emulator served, one line per request: `METHOD /path status ms`. */
  const served: string[] = [];
  const e2e = useE2eFixture({ api: kind, emulator: { log: (line) => served.push(line) } });
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let studio: number;

  /** The visits counted per card, channel and profile. */
  const counts = () =>
    e2e.emulator.query(
      `select card_id, type, via, sum(visits)::int as visits from public.namecard_visit
       group by 1, 2, 3 order by 1, 2, 3`,
    );

  test('a card of its own: /go/?c=studio follows the studio card, /go/ the card main', async () => {
    const { emulator, site, page, cards } = e2e;
    await emulator.query('delete from public.namecard');
    owner = await person(emulator, `studio-owner@${kind}.test`);
    editor = await person(emulator, `studio-editor@${kind}.test`);
    viewer = await person(emulator, `studio-viewer@${kind}.test`);
    studio = await makeCard(emulator, owner, 'studio', 'Studio');
    await join(emulator, owner, editor, 'studio', 'editor');
    await join(emulator, owner, viewer, 'studio', 'viewer');
    // The editor switches the studio card to photo; main has nothing set.
    const set = await rpc(emulator, editor, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: Date.now() + HOUR,
      card: 'studio',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    served.length = 0;
    const card = await followGo(page, site, cards, 'go-card', 'go/?c=studio&via=qr');
    expect(card.landing.path).toBe('/photo');
    expect(card.landing.at - card.lookupDoneAt).toBeGreaterThanOrEqual(1500);
    expect(card.lookups).toHaveLength(1);
    const url = new URL(card.lookups[0]!.url());
    expect(url.pathname).toBe('/rest/v1/rpc/namecard_go');
    expect(url.searchParams.get('card')).toBe('studio');
    expect(url.searchParams.get('apikey')).toBe(emulator.anonKey);
    expect((await card.lookups[0]!.allHeaders()).authorization).toBeUndefined();
    const bare = await followGo(page, site, cards);
    expect(bare.landing.path).toBe('/');
    expect(new URL(bare.lookups[0]!.url()).searchParams.get('card')).toBe('main');
    const api = served.filter((line) => line.includes('/rest/v1/'));
    expect(api.filter((line) => line.startsWith('OPTIONS'))).toEqual([]);
    expect(api.filter((line) => line.startsWith('GET'))).toEqual([
      expect.stringMatching(/^GET \/rest\/v1\/rpc\/namecard_go 200 /),
      expect.stringMatching(/^GET \/rest\/v1\/rpc\/namecard_go 200 /),
    ]);
    // Each visit counted for its own card: the studio's photo by QR, main's main site by link.
    await expect.poll(counts, { timeout: 10_000 }).toEqual([
      { card_id: await cardRowId(emulator), type: 'main', via: 'link', visits: 1 },
      { card_id: studio, type: 'photo', via: 'qr', visits: 1 },
    ]);
  });

  test('the card main set to photo moves /go/ and leaves the studio card where it was', async () => {
    const { emulator, site, page, cards } = e2e;
    await insertEntry(emulator, 'photo', null, Date.now() + HOUR);
    const ended = await rpc(emulator, editor, 'namecard_end_now', { card: 'studio' });
    expect(ended.status).toBe(200);
    // The viewer sees the card but changes nothing.
    const refused = await rpc(emulator, viewer, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: Date.now() + HOUR,
      card: 'studio',
    });
    expect(refused.status).toBe(403);
    expect((await followGo(page, site, cards)).landing.path).toBe('/photo');
    expect((await followGo(page, site, cards, undefined, 'go/?c=studio')).landing.path).toBe('/');
  });

  test('an unknown slug, or a c that is no slug, lands on the main site after 1.5 s and counts nothing', async () => {
    const { site, page, cards } = e2e;
    const before = await counts();
    const from = served.length;
    for (const path of ['go/?c=never-given', 'go/?c=Not%20a%20slug!']) {
      const visit = await followGo(page, site, cards, undefined, path);
      expect(visit.landing.path, path).toBe('/');
      expect(visit.landing.at - visit.lookupDoneAt, path).toBeGreaterThanOrEqual(1500);
      // A c that is no slug asks nothing at all.
      expect(visit.lookups, path).toHaveLength(path.includes('never-given') ? 1 : 0);
    }
    // The counting POST of the unknown slug was sent (a visitor's page cannot tell) and counted
    // nothing: wait until the server answered it, then compare.
    const counted = () =>
      served.slice(from).filter((l) => l.startsWith('POST /rest/v1/rpc/namecard_count_visit '));
    await expect.poll(() => counted().length, { timeout: 10_000 }).toBe(1);
    expect(counted()).toEqual([expect.stringMatching(/ 204 /)]);
    expect(await counts()).toEqual(before);
  });
});
