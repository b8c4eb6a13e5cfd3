import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleError, notEditorSentence } from '../../cli/errors.js';
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
    expect(notEditorSentence()).toBe(
      `${REFUSAL_WORDS.not_owner}: it is neither an owner nor an editor of it`,
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
