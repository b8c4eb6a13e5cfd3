import { errorMessage } from '../parts/error-words.js';

// /manage's one way of reading from the server, without React (useLoad.ts runs it in a page;
// tests/unit/use-load.test.ts runs it alone).

/**
 * What /manage has of one read from the server: not yet answered, the data, or why it could
 * not be read (`error`: the user's words, errorMessage(), e.g. "Cannot reach the server at …").
 * Every section of the page reads through this one shape.
 */
export type Loaded<T> =
  { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; error: string };

/**
 * A read whose answer may arrive late. `signal` is aborted when the answer is no longer wanted
 * (a newer read started, the page's inputs changed, the section is gone): an answer that
 * arrives after that is dropped, and a read holding something to let go of (an object URL)
 * can listen for it.
 */
export type LoadFn<T> = (signal: AbortSignal) => Promise<T>;

/** The reads of one section, independent of React: what {@link useLoad} runs. */
export interface Loader<T> {
  /** Starts a read (the one before it is no longer wanted); resolves to its outcome. */
  run(): Promise<Loaded<T>>;
  /** No read is wanted any more: the one under way is aborted and its answer dropped. */
  stop(): void;
}

/**
 * The reads of one section, as a plain object (tested without a page). Each `run()` calls
 * `load` and hands its outcome to `show`, unless a newer run started or `stop()` was called
 * since; either way it resolves to that outcome. What is shown stays until a newer answer
 * replaces it: a read again never goes back to `loading`.
 */
export function createLoader<T>(load: LoadFn<T>, show: (next: Loaded<T>) => void): Loader<T> {
  let current: AbortController | null = null;
  return {
    async run() {
      current?.abort();
      const mine = new AbortController();
      current = mine;
      let next: Loaded<T>;
      try {
        next = { state: 'ready', data: await load(mine.signal) };
      } catch (error) {
        next = { state: 'error', error: errorMessage(error) };
      }
      if (current === mine && !mine.signal.aborted) show(next);
      return next;
    },
    stop() {
      current?.abort();
      current = null;
    },
  };
}
