// What the benchmark ran on: the figures only mean something next to this.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /**
   * 1-minute load average at the start of the run, before each measurement and at the end:
   * how busy the box was. Each sample but the first is taken after the benchmark let the
   * machine settle ({@link settle}), so it shows other work, not the benchmark's own.
   */
  loadAverage: { start: number; sections?: { name: string; load: number }[]; end?: number };
  /**
   * A sample exceeded the core count: other work competed for the CPU, so the figures of this
   * run are not comparable with a quiet run's.
   */
  overloaded?: boolean;
  postgres?: string;
  pglite?: string;
  chromium?: string;
}

function osRelease(): string {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}

function pgliteVersion(): string | undefined {
  try {
    const url = new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Waits, before a measurement, until the 1-minute load average is at most half the cores or
 * `maxMs` has passed. The load average trails the work by
 * about a minute, so right after the page measurement (Chromium) or the load generators it
 * shows the benchmark itself; after up to two idle minutes what remains is other work. The
 * measurement then also starts on a machine as quiet as it will get.
 *
 * @param maxMs the longest wait, ms (0 in a quick run: record at once)
 * @returns the load average then
 */
export async function settle(
  machine: Machine,
  name: string,
  maxMs: number,
  log: (line: string) => void,
): Promise<number> {
  const deadline = Date.now() + maxMs;
  const quiet = machine.cores / 2;
  let load = os.loadavg()[0] ?? 0;
  if (load > quiet && maxMs > 0)
    log(`${name}: waiting for the load average (${load.toFixed(2)}) to settle`);
  while (load > quiet && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    load = os.loadavg()[0] ?? 0;
  }
  return load;
}

/** Records the load average at the end of the run, and whether the run was overloaded. */
export function finishMachine(machine: Machine, end = os.loadavg()[0] ?? 0): void {
  machine.loadAverage.end = end;
  const samples = [
    machine.loadAverage.start,
    ...(machine.loadAverage.sections ?? []).map((s) => s.load),
    end,
  ];
  machine.overloaded = Math.max(...samples) > machine.cores;
}

export function describeMachine(): Machine {
  const version = pgliteVersion();
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${osRelease()} (${os.release()})`,
    node: process.version,
    loadAverage: { start: os.loadavg()[0] ?? 0 },
    ...(version ? { pglite: version } : {}),
  };
}
