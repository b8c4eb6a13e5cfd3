// Everything the benchmark starts (database servers, emulators, static servers, the
// browser) is registered here and stopped in reverse order: at the end, on an error, and
// on Ctrl+C or SIGTERM.

type Stop = () => Promise<void> | void;

const stack: { name: string; stop: Stop }[] = [];
let closing: Promise<void> | undefined;

/**
 * Registers a resource to stop at the end; returns a function that stops it now (once)
 * and removes it from the list.
 */
export function track(name: string, stop: Stop): () => Promise<void> {
  if (closing) {
    // Stopping already (Ctrl+C): whatever is started now is stopped at once.
    void Promise.resolve(stop()).catch(() => {});
    throw new Error(`bench is stopping; ${name} was stopped again`);
  }
  const entry = { name, stop };
  stack.push(entry);
  let done: Promise<void> | undefined;
  return () => {
    done ??= (async () => {
      const i = stack.indexOf(entry);
      if (i >= 0) stack.splice(i, 1);
      await stop();
    })();
    return done;
  };
}

/**
 * Stops every registered resource, newest first; a failure is reported, not thrown.
 * @param verbose say what was stopped (on Ctrl+C, so that it is clear nothing is left)
 */
export function stopAll(verbose = false): Promise<void> {
  closing ??= (async () => {
    while (stack.length > 0) {
      const entry = stack.pop();
      if (!entry) break;
      try {
        await withTimeout(Promise.resolve(entry.stop()), 15_000, entry.name);
        if (verbose) console.error(`bench: stopped ${entry.name}`);
      } catch (error) {
        console.error(`bench: stopping ${entry.name} failed:`, error);
      }
    }
  })();
  return closing;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not stop within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * On Ctrl+C or SIGTERM: stop everything, then exit with 130 / 143. Later signals are
 * ignored while stopping: tsx relays the signal to this process a second time, and a
 * process without a listener would die half-way through its cleanup.
 */
export function stopOnSignals(): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals, code: number) => {
    if (stopping) return;
    stopping = true;
    console.error(`\nbench: ${signal}, stopping what was started…`);
    void stopAll(true).finally(() => process.exit(code));
  };
  process.on('SIGINT', () => handler('SIGINT', 130));
  process.on('SIGTERM', () => handler('SIGTERM', 143));
}
