import { useCallback, useEffect, useMemo, useRef, useState, type DependencyList } from 'react';
import { createLoader, type LoadFn, type Loaded, type Loader } from './loader.js';

export type { LoadFn, Loaded } from './loader.js';

/**
 * Reads with `load` when the section appears and again whenever `deps` change (as useEffect's
 * own list; eslint's react-hooks checks it at each call); `reload()` reads again at once and
 * resolves to that read's outcome (a read before the first has started resolves to `loading`).
 * The result is a new object only when the state changes, so it may serve as an effect's
 * dependency. Until the first answer the state is `loading`; after it, the last answer stays
 * shown while a newer read is under way.
 */
export function useLoad<T>(
  load: LoadFn<T>,
  deps: DependencyList,
): Loaded<T> & { reload: () => Promise<Loaded<T>> } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const loader = useRef<Loader<T> | null>(null);
  useEffect(() => {
    const mine = createLoader(load, setLoaded);
    loader.current = mine;
    void mine.run();
    return () => mine.stop();
    // `deps` is the caller's list, checked at each call site (eslint.config.js: additionalHooks).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  const reload = useCallback(
    () => loader.current?.run() ?? Promise.resolve<Loaded<T>>({ state: 'loading' }),
    [],
  );
  return useMemo(() => ({ ...loaded, reload }), [loaded, reload]);
}
