import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../shared/core/errors.js';
import { createLoader, type Loaded } from '../../site/src/manage/parts/loader.js';

// /manage's one way of reading: the states a section goes through (loading, ready, error),
// what it keeps showing while it reads again, and the answers it drops. The hook itself
// (useLoad.ts) is this loader run by React; the e2e tests see it on the page.

/** A read the test answers by hand, in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A loader whose reads wait for the test, and every state it showed, in order. */
function harness<T>() {
  const reads: { answer: ReturnType<typeof deferred<T>>; signal: AbortSignal }[] = [];
  const shown: Loaded<T>[] = [];
  const loader = createLoader<T>(
    (signal) => {
      const answer = deferred<T>();
      reads.push({ answer, signal });
      return answer.promise;
    },
    (next) => shown.push(next),
  );
  return { loader, reads, shown };
}

describe('createLoader (useLoad)', () => {
  it('shows the data once the read answers', async () => {
    const { loader, reads, shown } = harness<string[]>();
    const run = loader.run();
    expect(shown).toEqual([]);
    reads[0]!.answer.resolve(['main', 'shop']);
    await expect(run).resolves.toEqual({ state: 'ready', data: ['main', 'shop'] });
    expect(shown).toEqual([{ state: 'ready', data: ['main', 'shop'] }]);
  });

  it('shows a server that did not answer in the owner’s words', async () => {
    const { loader, reads, shown } = harness<number>();
    const run = loader.run();
    reads[0]!.answer.reject(new NetworkError('http://127.0.0.1:54321/'));
    const error = {
      state: 'error',
      error: 'Cannot reach the server at http://127.0.0.1:54321; try again.',
    };
    await expect(run).resolves.toEqual(error);
    expect(shown).toEqual([error]);
  });

  it('keeps the last answer while reading again, then shows the new one (or the error)', async () => {
    const { loader, reads, shown } = harness<number>();
    const first = loader.run();
    reads[0]!.answer.resolve(1);
    await first;
    const again = loader.run();
    expect(shown).toEqual([{ state: 'ready', data: 1 }]);
    reads[1]!.answer.reject(new Error('permission denied for table namecards'));
    await again;
    expect(shown.at(-1)).toMatchObject({ state: 'error' });
    const third = loader.run();
    reads[2]!.answer.resolve(3);
    await third;
    expect(shown.map((s) => s.state)).toEqual(['ready', 'error', 'ready']);
    expect(shown.at(-1)).toEqual({ state: 'ready', data: 3 });
  });

  it('drops an older read that answers after a newer one started, and aborts it', async () => {
    const { loader, reads, shown } = harness<string>();
    const older = loader.run();
    const newer = loader.run();
    expect(reads[0]!.signal.aborted).toBe(true);
    expect(reads[1]!.signal.aborted).toBe(false);
    reads[1]!.answer.resolve('new');
    await newer;
    reads[0]!.answer.resolve('old');
    // The caller of the older read still learns its outcome; the page does not show it.
    await expect(older).resolves.toEqual({ state: 'ready', data: 'old' });
    expect(shown).toEqual([{ state: 'ready', data: 'new' }]);
  });

  it('shows nothing after stop(), and aborts the read under way', async () => {
    const { loader, reads, shown } = harness<string>();
    const run = loader.run();
    loader.stop();
    expect(reads[0]!.signal.aborted).toBe(true);
    reads[0]!.answer.resolve('late');
    await run;
    expect(shown).toEqual([]);
  });
});
