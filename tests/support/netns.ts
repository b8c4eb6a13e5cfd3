import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { execa, type Options, type ResultPromise } from 'execa';

// "A host on the LAN" for tests, without the machine's real network: a network namespace the
// test creates (iproute2's `ip netns`, as root, which CI is), joined to this machine by a veth
// pair on a /30 of 198.18.0.0/15 (RFC 2544's benchmarking range, which no real LAN uses). The
// namespace's address is not loopback, as a phone or another computer would not be, and traffic
// to it never leaves this machine. Each test file removes what it made in afterAll, whatever
// happened; a namespace left by a killed run (its name carries the run's process id) is removed
// by the next run that creates one.

const PREFIX = 'namecard-test-';

/** A host on a private link of this machine: a network namespace with one address. */
export interface LanHost {
  /** The namespace's name (for `ip netns exec`). */
  name: string;
  /** The namespace's address, e.g. `198.18.7.2`; this machine's end of the link is `.1` below it. */
  address: string;
  /** Runs a program inside the namespace (as `ip netns exec`); it is stopped by `remove()`. */
  exec(file: string, args: readonly string[], options?: Options): ResultPromise;
  /** Stops every program run in it and deletes the namespace with its link. */
  remove(): Promise<void>;
}

const ip = (args: string[]) => execa('ip', args, { reject: true });

/** Deletes namespaces a killed test run left behind (their process id no longer runs). */
async function removeStale(): Promise<void> {
  const { stdout } = await ip(['netns', 'list']);
  for (const line of stdout.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const pid = Number(/^namecard-test-(\d+)-/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      await execa('ip', ['netns', 'del', name], { reject: false });
    }
  }
}

/** A random /30 of 198.18.0.0/15: this machine's end (`.1`) and the namespace's (`.2`). */
function randomLink(): { local: string; remote: string } {
  const [a, b, c] = randomBytes(3);
  const second = 18 + (a! & 1);
  const fourth = (c! & 0xfc) % 252;
  return { local: `198.${second}.${b}.${fourth + 1}`, remote: `198.${second}.${b}.${fourth + 2}` };
}

/**
 * Creates a namespace joined to this machine by a veth pair, loopback up inside it.
 *
 * @throws Error saying that root is needed when `ip netns add` is refused
 */
export async function createLanHost(): Promise<LanHost> {
  await removeStale();
  const id = randomBytes(3).toString('hex');
  const name = `${PREFIX}${process.pid}-${id}`;
  const outside = `nc${id}h`;
  const inside = `nc${id}n`;
  const link = randomLink();
  const added = await execa('ip', ['netns', 'add', name], { reject: false });
  if (added.exitCode !== 0) {
    throw new Error(
      `\`ip netns add\` failed (${added.stderr.trim()}): these tests make a network namespace, which needs root and iproute2 (CI runs as root; .ci/run installs iproute2)`,
    );
  }
  const started: ResultPromise[] = [];
  const remove = async () => {
    for (const child of started) child.kill('SIGKILL');
    await Promise.allSettled(started);
    const { stdout } = await execa('ip', ['netns', 'pids', name], { reject: false });
    for (const pid of stdout.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await execa('ip', ['netns', 'del', name], { reject: false });
    await execa('ip', ['link', 'del', outside], { reject: false });
  };
  try {
    await ip(['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', name]);
    await ip(['addr', 'add', `${link.local}/30`, 'dev', outside]);
    await ip(['link', 'set', outside, 'up']);
    await ip(['-n', name, 'addr', 'add', `${link.remote}/30`, 'dev', inside]);
    await ip(['-n', name, 'link', 'set', inside, 'up']);
    await ip(['-n', name, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    name,
    address: link.remote,
    exec(file, args, options = {}) {
      const child = execa('ip', ['netns', 'exec', name, file, ...args], options);
      started.push(child as ResultPromise);
      return child as ResultPromise;
    },
    remove,
  };
}

/** A listener that answers nothing useful and reports every byte it receives. */
export interface Listener {
  /** `http://<address>:<port>`. */
  url: string;
  /**
   * What was received since the previous call (as latin1 text), once every byte sent before
   * this call has arrived: a marker is sent through a connection of its own and waited for first.
   */
  received(): Promise<string>;
}

// The listener runs in the namespace as a process of its own: each chunk as one JSON line.
const LISTENER = `
const net = require('node:net');
const [address, port] = process.argv.slice(1);
const server = net.createServer((socket) => {
  socket.on('data', (chunk) => process.stdout.write(JSON.stringify(chunk.toString('latin1')) + '\\n'));
  socket.on('error', () => undefined);
  socket.end('HTTP/1.1 500 Nope\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n');
});
server.listen(Number(port), address, () => process.stdout.write('"listening"\\n'));
`;

/**
 * Starts a {@link Listener} on `host` (port 8080: the namespace is the test's own).
 *
 * @param host where it listens
 */
export async function listenOn(host: LanHost, port = 8080): Promise<Listener> {
  const child = host.exec(process.execPath, ['-e', LISTENER, host.address, String(port)], {
    buffer: false,
  });
  const chunks: string[] = [];
  let pending = '';
  let ready: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (ready = resolve));
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const value = JSON.parse(line) as string;
      if (value === 'listening' && chunks.length === 0) ready();
      else chunks.push(value);
    }
  });
  await Promise.race([
    listening,
    child.then((r) => Promise.reject(new Error(`the listener exited: ${String(r.stderr)}`))),
  ]);
  let marks = 0;
  return {
    url: `http://${host.address}:${port}`,
    async received() {
      const mark = `MARK-${++marks}-${randomBytes(4).toString('hex')}`;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, host.address, () => socket.end(mark));
        // Read (and drop) the listener's answer, so that its end, then the close, arrive.
        socket
          .resume()
          .on('error', reject)
          .on('close', () => resolve());
      });
      const deadline = Date.now() + 10_000;
      while (!chunks.join('').includes(mark)) {
        if (Date.now() > deadline) throw new Error(`the listener never reported ${mark}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const all = chunks.splice(0).join('');
      const at = all.indexOf(mark);
      // Whatever came after the marker belongs to the next call.
      if (at + mark.length < all.length) chunks.push(all.slice(at + mark.length));
      return all.slice(0, at);
    },
  };
}
