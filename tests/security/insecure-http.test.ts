import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, run, tempConfigDir } from '../cli/helpers.js';

// The CLI never sends the owner's password or session over plain http: to another machine: a
// listener on this machine's own non-loopback address (as a host on the LAN would be) receives
// nothing, whether SUPABASE_URL comes from the environment, a flag or a cloned checkout's
// `.env`; the refusal names SUPABASE_URL (exit 2). `--allow-insecure-http` is the explicit way
// to test on a LAN. A `.env` can no longer set NAMECARD_PASSWORD or NAMECARD_CONFIG_DIR.

/** This machine's first IPv4 address that is not loopback, or undefined. */
function ownLanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

const address = ownLanAddress();

describe.runIf(address)('credentials over plain http: to another address', () => {
  let server: Server;
  let url: string;
  let dir: string;
  let checkout: string;
  const received: string[] = [];

  beforeAll(async () => {
    // Bound to this machine's own LAN address only: nothing else can reach it.
    server = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => received.push(chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 500 Nope\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    const port = (server.address() as { port: number }).port;
    url = `http://${address}:${port}`;
    dir = await tempConfigDir();
    checkout = await mkdtemp(path.join(tmpdir(), 'namecard-checkout-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await removeDir(dir);
    await rm(checkout, { recursive: true, force: true });
  });

  const SECRET = 'a-password-nobody-may-read';
  const MESSAGE = `error: \`SUPABASE_URL\` must be an https: URL to send your password or session there, or http: to this machine (127.0.0.1, localhost)`;

  it('the environment: exit 2 naming SUPABASE_URL, and the listener gets no byte', async () => {
    const result = await run(dir, ['end'], {
      env: { SUPABASE_URL: url, NAMECARD_EMAIL: 'me@example.com', NAMECARD_PASSWORD: SECRET },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(MESSAGE);
    expect(received.join('')).toBe('');
  });

  it('a flag at login: exit 2, nothing sent', async () => {
    const args = ['login', '--api-url', url, '--email', 'me@example.com', '--password-stdin'];
    const result = await run(dir, args, { input: `${SECRET}\n` });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
    expect(received.join('')).toBe('');
  });

  it("a cloned checkout's .env: its SUPABASE_URL is refused and its password never read", async () => {
    await writeFile(path.join(checkout, 'package.json'), JSON.stringify({ name: 'namecard' }));
    await writeFile(
      path.join(checkout, '.env'),
      `SUPABASE_URL=${url}\nNAMECARD_EMAIL=me@example.com\nNAMECARD_PASSWORD=${SECRET}\nNAMECARD_CONFIG_DIR=${checkout}/captured\n`,
    );
    const result = await run(dir, ['end'], {
      cwd: checkout,
      env: { NAMECARD_EMAIL: 'me@example.com', NAMECARD_PASSWORD: 'from-the-environment' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
    expect(received.join('')).toBe('');
    // The session's folder stays where the environment says: the .env's is never made.
    expect(existsSync(path.join(checkout, 'captured'))).toBe(false);
  });

  it('--allow-insecure-http is the explicit way to reach a LAN test server', async () => {
    const result = await run(dir, ['end', '--allow-insecure-http'], {
      env: { SUPABASE_URL: url, NAMECARD_EMAIL: 'me@example.com', NAMECARD_PASSWORD: SECRET },
    });
    expect(result.exitCode).toBe(1);
    expect(received.join('')).toContain('POST /auth/v1/token');
    received.length = 0;
  });
});

describe('credentials over plain http: to a host name that is not this machine', () => {
  it('is refused before any look-up or connection (exit 2, not a network failure)', async () => {
    const dir = await tempConfigDir();
    try {
      // `.invalid` never resolves: reaching the network would fail with exit 1 instead.
      const result = await run(dir, ['end'], {
        env: {
          SUPABASE_URL: 'http://card.invalid:54321',
          NAMECARD_EMAIL: 'me@example.com',
          NAMECARD_PASSWORD: 'secret-password',
        },
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
      // https: and this machine's http: are fine: the same run against https: reaches the
      // network (and fails there, exit 1), so the refusal is about plain http: only.
      const https = await run(dir, ['end'], {
        env: {
          SUPABASE_URL: 'https://card.invalid',
          NAMECARD_EMAIL: 'me@example.com',
          NAMECARD_PASSWORD: 'secret-password',
        },
      });
      expect(https.exitCode).toBe(1);
    } finally {
      await removeDir(dir);
    }
  });
});
