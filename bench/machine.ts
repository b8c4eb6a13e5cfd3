// What the benchmark ran on: the figures only mean something next to this.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** 1-minute load average at the start and the end of the run: how busy the box was. */
  loadAverage: { start: number; end?: number };
  /**
   * The 1-minute load average exceeded the core count at the start or the end: other work
   * competed for the CPU, so the figures of this run are not comparable with a quiet run's.
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

/** Records the load average at the end of the run, and whether the run was overloaded. */
export function finishMachine(machine: Machine): void {
  machine.loadAverage.end = os.loadavg()[0] ?? 0;
  machine.overloaded = Math.max(machine.loadAverage.start, machine.loadAverage.end) > machine.cores;
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
