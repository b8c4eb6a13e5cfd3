import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleError, notEditorSentence, refusalOnCard } from '../../cli/errors.js';
import { NamecardError } from '../../shared/core/errors.js';
import { describeRefusal, REFUSAL_WORDS } from '../../shared/core/describe.js';
import {
  ApiError,
  InputError,
  isRefusal,
  REFUSAL_CODES,
  refusalOf,
  type RefusalCode,
} from '../../shared/core/errors.js';

// The server's refusals are named once (REFUSAL_CODES) and worded once (REFUSAL_WORDS), for the
// CLI and the manage page alike.

const CODES = Object.keys(REFUSAL_CODES) as RefusalCode[];

describe('refusals by typed code', () => {
  it('names each server code and recognises nothing else', () => {
    expect(REFUSAL_CODES).toEqual({
      not_owner: '42501',
      entry_refused: '23514',
      no_such_entry: 'PT404',
      entry_stopped: 'PT409',
    });
    for (const code of CODES) {
      const error = new ApiError(403, REFUSAL_CODES[code], 'the server says no');
      expect(refusalOf(error)).toBe(code);
      expect(isRefusal(error, code)).toBe(true);
      expect(isRefusal(error)).toBe(true);
      for (const other of CODES.filter((c) => c !== code))
        expect(isRefusal(error, other)).toBe(false);
    }
    expect(refusalOf(new ApiError(400, 'PGRST100', 'bad'))).toBeUndefined();
    expect(refusalOf(new InputError('date', 'YYYY-MM-DD', '42501'))).toBeUndefined();
    expect(refusalOf({ code: '42501' })).toBeUndefined();
  });

  it('words them once: the shared words, or the server own where it names the entry', () => {
    const server = new ApiError(404, 'PT404', 'There is no entry 7');
    expect(describeRefusal('no_such_entry', server)).toBe('There is no entry 7');
    expect(describeRefusal('not_owner', new ApiError(403, '42501', 'rls'))).toBe(
      'this account may not change the card',
    );
    expect(notEditorSentence('studio')).toBe(
      `${REFUSAL_WORDS.not_owner} studio: it is neither an owner nor an editor of it`,
    );
  });
});

describe("the CLI's handler", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(CODES)('reports %s in the shared words with exit 1', (code) => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const error = new ApiError(403, REFUSAL_CODES[code], 'the server says no');
    expect(handleError(error)).toBe(1);
    expect(written[0]).toContain(describeRefusal(code, error));
    expect(written).toHaveLength(2); // the message and the face's own next step
  });
});

describe('refusals of a call on a card', () => {
  const words = (error: unknown) => {
    const refined = error as NamecardError;
    return { code: refined.code, message: refined.message, hint: refined.hint };
  };

  it('name the card and the role the server says is needed', () => {
    const viewer = new ApiError(
      403,
      '42501',
      'permission denied for function namecard_set',
      'needs editor',
    );
    expect(words(refusalOnCard(viewer, { card: 'studio', caller: 'person' }))).toEqual({
      code: 'needs_role',
      message: 'your role on the card studio does not allow this: needs editor',
      hint: 'Ask one of the owners of studio (`namecard member role`)',
    });
    const token = new ApiError(
      403,
      '42501',
      'permission denied for function namecard_members',
      'needs owner',
    );
    expect(words(refusalOnCard(token, { card: 'studio', caller: 'token' }))).toMatchObject({
      message: "the token's role on the card studio does not allow this: needs owner",
      hint: expect.stringContaining('A card token never owns its card'),
    });
  });

  it("name what the command needs where the server's refusal does not say (row-level security, a grant)", () => {
    const rls = new ApiError(403, '42501', 'new row violates row-level security policy');
    expect(
      words(refusalOnCard(rls, { card: 'studio', caller: 'person', need: 'owner' })),
    ).toMatchObject({
      message: 'your role on the card studio does not allow this: needs owner',
    });
    const grant = new ApiError(401, '42501', 'permission denied for function namecard_card_add');
    expect(words(refusalOnCard(grant, { caller: 'token', need: 'person' }))).toMatchObject({
      code: 'needs_person',
      message: 'a card token cannot do this: needs a person signed in',
    });
  });

  it('tell a caller who is a member of no card how to get one; leave any other error as it is', () => {
    const none = new ApiError(404, 'PT404', 'None of your cards is called main', 'no such card');
    expect(
      words(refusalOnCard(none, { card: 'main', caller: 'person', noCards: true })),
    ).toMatchObject({
      code: 'no_card',
      message: 'this account is a member of no card, so it may not act on the card main',
      hint: expect.stringContaining('namecard member accept <code>'),
    });
    expect(refusalOnCard(none, { card: 'main', caller: 'person' })).toBe(none);
    const other = new ApiError(409, 'PT409', 'There is no running entry 7');
    expect(refusalOnCard(other, { card: 'main', caller: 'person', need: 'owner' })).toBe(other);
  });
});
