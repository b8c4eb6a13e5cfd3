import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cardLinkOf, channelLink, goCardOf } from '../../shared/core/card-link.js';
import {
  CardConflictError,
  cardRefusalOf,
  chooseCard,
  choiceNeedsCards,
  neededRole,
  parseCardRole,
  parseCardSlug,
  roleAtLeast,
  type CardRole,
} from '../../shared/core/cards.js';
import { isInvitation } from '../../shared/core/members.js';
import { ApiError, InputError } from '../../shared/core/errors.js';
import { GO_FUNCTION, fetchActiveEntry, fetchStatus, lookupUrl } from '../../shared/core/lookup.js';

// The card rules the faces share (shared/core/cards.ts, card-link.ts, lookup.ts): a slug's and
// a role's form, the choice of the card a run or a page acts on, each card's link, which of the
// server's refusals an error is, and the one GET of a card named by its slug.

describe('slugs and roles', () => {
  it.each(['studio', 'a1', 'my-card-2', '0123456789abcdef0123456789abcdef'])(
    '%s is a slug',
    (s) => {
      expect(parseCardSlug(` ${s} `)).toBe(s);
    },
  );

  it('reads a slug whatever its case, as the server matches it', () => {
    expect(parseCardSlug('Studio')).toBe('studio');
  });

  it.each(['a', '-studio', 'st udio', 'stüdio', 'x'.repeat(33), 'a_b'])(
    '%s is refused, naming the field and the form',
    (s) => {
      let error: unknown;
      try {
        parseCardSlug(s, '--card');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toBe(
        `\`--card\` must be 2 to 32 of a-z, 0-9 and -, not starting with - (e.g. studio), got \`${s}\``,
      );
    },
  );

  it('reads a role whatever its case, and refuses any other word', () => {
    expect(parseCardRole('Editor')).toBe('editor');
    expect(() => parseCardRole('admin')).toThrow(
      '`role` must be owner, editor or viewer, got `admin`',
    );
  });

  it.each([
    ['owner', 'owner', true],
    ['owner', 'viewer', true],
    ['editor', 'editor', true],
    ['editor', 'owner', false],
    ['viewer', 'editor', false],
    [null, 'viewer', false],
  ] as const)('%s may do what %s may: %s', (role, need, may) => {
    expect(roleAtLeast(role, need)).toBe(may);
  });
});

/** The caller's cards as `namecard_cards()` answers them, from `slug:role` pairs. */
const cardsOf = (...pairs: string[]) =>
  pairs.map((pair) => {
    const [slug, role] = pair.split(':') as [string, CardRole];
    return { slug, role };
  });

describe('the card a run or a page acts on', () => {
  it.each([
    ['the only card', cardsOf('studio:editor'), { slug: 'studio', source: 'your only card' }],
    ['main where a member', cardsOf('zoo:owner', 'main:viewer'), { slug: 'main', source: 'main' }],
    [
      'the first by slug without main',
      cardsOf('zoo:owner', 'fair:editor'),
      { slug: 'fair', source: 'your first card' },
    ],
    ['main with no card at all', [], { slug: 'main', source: 'main' }],
    ['main when signed out', undefined, { slug: 'main', source: 'main' }],
  ])('with nothing named: %s', (_what, cards, choice) => {
    expect(chooseCard({ cards })).toEqual(choice);
  });

  it('takes --card, then NAMECARD_CARD, then `card use`, whatever the cards', () => {
    const cards = cardsOf('studio:editor');
    const named = { slug: 'fair', source: '--card' } as const;
    expect(chooseCard({ named, env: 'zoo', current: 'main', cards })).toEqual(named);
    expect(chooseCard({ env: 'zoo', current: 'main', cards })).toEqual({
      slug: 'zoo',
      source: 'NAMECARD_CARD',
    });
    expect(chooseCard({ current: 'main', cards })).toEqual({ slug: 'main', source: 'card use' });
    expect(choiceNeedsCards({ current: 'main' })).toBe(false);
    expect(choiceNeedsCards({})).toBe(true);
  });

  it("is a card token's own card, named where it was named, and refuses a token run naming another, naming both (exit 2)", () => {
    expect(chooseCard({ tokenCard: 'studio', cards: cardsOf('studio:editor') })).toEqual({
      slug: 'studio',
      source: 'the token',
    });
    expect(chooseCard({ env: 'studio', tokenCard: 'studio' })).toEqual({
      slug: 'studio',
      source: 'NAMECARD_CARD',
    });
    let refused: unknown;
    try {
      chooseCard({ named: { slug: 'main', source: '--card' }, tokenCard: 'studio' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(CardConflictError);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as Error).message).toContain('`--card` names the card main');
    expect((refused as Error).message).toContain('a token of the card studio');
    expect((refused as Error).message).toContain('Name studio or no card');
    const current = () => chooseCard({ current: 'main', tokenCard: 'studio' });
    expect(current).toThrow('Make studio the current card (`namecard card use studio`)');
    const env = () => chooseCard({ env: 'main', tokenCard: 'studio' });
    expect(env).toThrow('Set NAMECARD_CARD to studio or unset it');
  });
});

describe("each card's link", () => {
  it('is the bare card link for the card main, ?c=<slug> for any other', () => {
    expect(cardLinkOf('https://me.example/go/', 'main')).toBe('https://me.example/go/');
    expect(cardLinkOf('https://me.example/card/go/', 'studio')).toBe(
      'https://me.example/card/go/?c=studio',
    );
  });

  it("keeps the card when marked with a channel, and main's bare link bare", () => {
    expect(channelLink('https://me.example/go/?c=studio', 'qr')).toBe(
      'https://me.example/go/?c=studio&via=qr',
    );
    expect(channelLink('https://me.example/go/?c=studio&via=nfc', 'qr')).toBe(
      'https://me.example/go/?c=studio&via=qr',
    );
    expect(channelLink('https://me.example/go/', 'nfc')).toBe('https://me.example/go/?via=nfc');
  });

  it.each([
    ['', 'main'],
    ['?via=qr', 'main'],
    ['?c=studio&via=qr', 'studio'],
    ['?via=nfc&c=my-card', 'my-card'],
    ['?c=', 'main'],
    ['?c=Studio', 'studio'],
    ['?c=%3Cscript%3E', undefined],
  ])('/go%s asks for %s', (search, card) => {
    expect(goCardOf(search)).toBe(card);
  });
});

describe("the server's card refusals", () => {
  it('names the role a refusal says is needed, and nothing for other refusals', () => {
    const needs = new ApiError(
      403,
      '42501',
      'permission denied for function namecard_set',
      'needs editor',
    );
    expect(neededRole(needs)).toBe('editor');
    expect(cardRefusalOf(needs)).toBe('needs_role');
    const rls = new ApiError(403, '42501', 'new row violates row-level security policy');
    expect(neededRole(rls)).toBeUndefined();
    expect(cardRefusalOf(rls)).toBeUndefined();
  });

  it.each([
    ['no such card', 'no_such_card'],
    ['no such invitation', 'no_such_invitation'],
    ['last owner', 'last_owner'],
    ['main card', 'main_card'],
    ['slug taken', 'slug_taken'],
    [null, undefined],
  ])('details %s is %s', (details, name) => {
    expect(cardRefusalOf(new ApiError(404, 'PT404', 'x', details))).toBe(name);
  });

  it('knows an invitation by its form', () => {
    const good = {
      code: `nci_${'a'.repeat(32)}`,
      role: 'viewer',
      card: 'studio',
      expires: '2030-01-01T00:00:00Z',
    };
    expect(isInvitation(good)).toBe(true);
    expect(isInvitation({ ...good, code: 'nci_short' })).toBe(false);
    expect(isInvitation({ ...good, role: 'admin' })).toBe(false);
  });
});

describe("a card's one GET", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  async function serve(body: string, seen: IncomingMessage[]): Promise<string> {
    server = createServer((req, res) => {
      seen.push(req);
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('reads a card through namecard_go on a URL fixed by the slug, with no custom header', async () => {
    const seen: IncomingMessage[] = [];
    const url = await serve('[]', seen);
    expect(
      await fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon.key', card: 'studio' }),
    ).toBeNull();
    expect(seen.map((r) => r.url)).toEqual([
      '/rest/v1/rpc/namecard_go?card=studio&select=id,type,stamp_start,stamp_end,url&apikey=anon.key',
    ]);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers.apikey).toBeUndefined();
  });

  it("reads a card's status through namecard_status", async () => {
    const seen: IncomingMessage[] = [];
    const status = {
      now: 1,
      active: null,
      timeline: [{ type: 'main', from: 1, to: null }],
      labels: {},
      url: null,
      series_ahead: [],
    };
    const url = await serve(JSON.stringify([status]), seen);
    expect((await fetchStatus({ supabaseUrl: url, anonKey: 'k', card: 'studio' })).now).toBe(1);
    expect(seen[0]!.url).toBe(
      '/rest/v1/rpc/namecard_status?card=studio&select=now,active,timeline,labels,url,series_ahead&apikey=k',
    );
    expect(lookupUrl('https://x.example', 'k', GO_FUNCTION, 'a-b')).toBe(
      'https://x.example/rest/v1/rpc/namecard_go?card=a-b&select=id,type,stamp_start,stamp_end,url&apikey=k',
    );
  });
});
