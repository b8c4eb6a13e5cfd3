import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { listen } from '../../scripts/http-server.js';
import { useE2eFixture } from '../e2e/fixture.js';
import { followGo, sendJson, type FakeAnswer } from '../e2e/harness.js';

// The Redirecting.. page sends visitors to one of the two configured URLs and nowhere else,
// whatever the backend answers. A real backend cannot hold such rows once the table's check
// constraint is on, so a fake one serves them: script URLs, other sites, huge and malformed
// values, and a redirect elsewhere.

const HOUR = 3_600_000;
const active = () => Date.now() + HOUR;
const row = (type: unknown, extra: Record<string, unknown> = {}) => ({
  id: 1,
  stamp_end: active(),
  type,
  ...extra,
});
const rows =
  (make: () => unknown): FakeAnswer =>
  (_req, res) =>
    sendJson(res, 200, make());

const HOSTILE: { name: string; answer: FakeAnswer }[] = [
  { name: 'type javascript:alert(1)', answer: rows(() => [row('javascript:alert(1)')]) },
  {
    name: 'type data:text/html with a script',
    answer: rows(() => [row('data:text/html,<script>alert(1)</script>')]),
  },
  { name: 'type https://evil.example/', answer: rows(() => [row('https://evil.example/')]) },
  { name: 'type //evil.example', answer: rows(() => [row('//evil.example/photo')]) },
  { name: 'type ../../evil', answer: rows(() => [row('../../../evil.example')]) },
  { name: 'type "photo " with a space', answer: rows(() => [row('photo ')]) },
  { name: 'type PHOTO in capitals', answer: rows(() => [row('PHOTO')]) },
  { name: 'type as an object', answer: rows(() => [row({ toString: 'photo' })]) },
  { name: 'type as an array', answer: rows(() => [row(['photo'])]) },
  { name: 'a 1 MB type', answer: rows(() => [row('x'.repeat(1_000_000))]) },
  {
    name: 'url, target and location fields beside a main type',
    answer: rows(() => [
      row('main', {
        url: 'https://evil.example/',
        target: 'https://evil.example/',
        location: 'javascript:alert(1)',
      }),
    ]),
  },
  {
    name: 'a __proto__ key carrying type photo',
    answer: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`[{"id":1,"stamp_end":${active()},"__proto__":{"type":"photo"}}]`);
    },
  },
  {
    name: '20,000 rows of hostile types',
    answer: rows(() =>
      Array.from({ length: 20_000 }, (_, i) => row(`https://evil.example/${i}`, { id: i })),
    ),
  },
  {
    name: 'photo with a stamp_end that is text',
    answer: rows(() => [{ id: 1, stamp_end: String(active()), type: 'photo' }]),
  },
  { name: 'photo with no id', answer: rows(() => [{ stamp_end: active(), type: 'photo' }]) },
  {
    // To a server of our own that would answer with a photo row: the CSP's connect-src stops
    // the browser from following it, so the lookup fails.
    name: 'a redirect to another origin',
    answer: (_req, res) => void res.writeHead(302, { Location: `${elsewhere.url}rows` }).end(),
  },
];

/** Another origin; counts what reaches it. Started before the tests, stopped after. */
const elsewhere = { url: '', hits: [] as string[], stop: async () => {} };

describe('/go only ever sends visitors to the two configured URLs', () => {
  const e2e = useE2eFixture({ api: 'fake' });
  let dialogs: string[];
  let foreign: string[];
  let navigations: string[];

  beforeAll(async () => {
    const server = await listen((req, res) => {
      elsewhere.hits.push(req.url ?? '/');
      res.setHeader('Access-Control-Allow-Origin', '*');
      sendJson(res, 200, [row('photo')]);
    });
    Object.assign(elsewhere, { url: server.url, stop: server.stop });
  });
  afterAll(async () => {
    await elsewhere.stop();
  });
  beforeEach(async () => {
    const { backend, cards, site, page } = e2e;
    elsewhere.hits.length = 0;
    dialogs = [];
    foreign = [];
    navigations = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const known = [site.url, backend.url, cards.url, elsewhere.url].map((u) => new URL(u).origin);
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    page.on('request', (r) => {
      const url = r.url();
      if (url.startsWith('http') && !known.includes(new URL(url).origin)) foreign.push(url);
    });
  });

  test('an active photo row from the same fake backend lands on the photo page', async () => {
    const { backend, cards, site, page } = e2e;
    backend.answer = rows(() => [row('photo')]);
    const visit = await followGo(page, site, cards);
    expect(visit.finalUrl).toBe(`${cards.url}photo`);
  });

  test.each(HOSTILE)(
    'a backend answering with $name: the main site, nothing else',
    async ({ answer }) => {
      const { backend, cards, site, page } = e2e;
      backend.answer = answer;
      const visit = await followGo(page, site, cards);
      expect(visit.finalUrl).toBe(cards.url);
      expect(visit.heading).toBe('Main profile');
      expect(navigations).toEqual([site.route('go/'), cards.url]);
      expect(dialogs).toEqual([]);
      expect(foreign).toEqual([]);
      expect(elsewhere.hits).toEqual([]);
      expect(cards.visits.map((v) => v.path)).toEqual(['/']);
    },
  );
});
