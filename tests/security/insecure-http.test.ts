import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, run, tempConfigDir } from '../cli/helpers.js';
import { createLanHost, listenOn, type LanHost, type Listener } from '../support/netns.js';

// The CLI never sends the owner's password or session over plain http: to another machine: a
// listener on a host of the LAN (an address in a network namespace this test makes, never the
// machine's real network) receives nothing, whether SUPABASE_URL comes from the environment, a
// flag or a cloned checkout's `.env`; the refusal names SUPABASE_URL (exit 2).
// `--allow-insecure-http` is the explicit way to test on a LAN. A `.env` can no longer set
// NAMECARD_PASSWORD or NAMECARD_CONFIG_DIR.

/** The key of the project on the LAN host: any API elsewhere needs its own key. */
const KEY = 'sb_publishable_lan_test_key';

describe('credentials over plain http: to another address', () => {
  let host: LanHost;
  let listener: Listener;
  let url: string;
  let dir: string;
  let checkout: string;

  beforeAll(async () => {
    host = await createLanHost();
    listener = await listenOn(host);
    url = listener.url;
    dir = await tempConfigDir();
    checkout = await mkdtemp(path.join(tmpdir(), 'namecard-checkout-'));
  });
  afterAll(async () => {
    await host?.remove();
    await removeDir(dir);
    if (checkout) await rm(checkout, { recursive: true, force: true });
  });

  const SECRET = 'a-password-nobody-may-read';
  const MESSAGE = `error: \`SUPABASE_URL\` must be an https: URL to send your password or session there, or http: to this machine (127.0.0.1, localhost)`;

  it('the environment: exit 2 naming SUPABASE_URL, and the listener gets no byte', async () => {
    const result = await run(dir, ['end'], {
      env: {
        SUPABASE_URL: url,
        SUPABASE_ANON_KEY: KEY,
        NAMECARD_EMAIL: 'me@example.com',
        NAMECARD_PASSWORD: SECRET,
      },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(MESSAGE);
    expect(await listener.received()).toBe('');
  });

  it('a flag at login: exit 2, nothing sent', async () => {
    const args = ['login', '--api-url', url, '--email', 'me@example.com', '--password-stdin'];
    const result = await run(dir, args, {
      input: `${SECRET}\n`,
      env: { SUPABASE_ANON_KEY: KEY },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
    expect(await listener.received()).toBe('');
  });

  it("a cloned checkout's .env: its SUPABASE_URL is refused and its password never read", async () => {
    await writeFile(path.join(checkout, 'package.json'), JSON.stringify({ name: 'namecard' }));
    await writeFile(
      path.join(checkout, '.env'),
      `SUPABASE_URL=${url}\nSUPABASE_ANON_KEY=${KEY}\nNAMECARD_EMAIL=me@example.com\nNAMECARD_PASSWORD=${SECRET}\nNAMECARD_CONFIG_DIR=${checkout}/captured\n`,
    );
    const result = await run(dir, ['end'], {
      cwd: checkout,
      env: { NAMECARD_EMAIL: 'me@example.com', NAMECARD_PASSWORD: 'from-the-environment' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
    expect(await listener.received()).toBe('');
    // The session's folder stays where the environment says: the .env's is never made.
    expect(existsSync(path.join(checkout, 'captured'))).toBe(false);
  });

  it('--allow-insecure-http is the explicit way to reach a LAN test server', async () => {
    const result = await run(dir, ['end', '--allow-insecure-http'], {
      env: {
        SUPABASE_URL: url,
        SUPABASE_ANON_KEY: KEY,
        NAMECARD_EMAIL: 'me@example.com',
        NAMECARD_PASSWORD: SECRET,
      },
    });
    expect(result.exitCode).toBe(1);
    expect(await listener.received()).toContain('POST /auth/v1/token');
  });

  it('https: to the same host is not refused: the run reaches it (and fails there, exit 1)', async () => {
    // The refusal is about plain http: only: https: goes out (its TLS hello is all the listener
    // gets, since it answers no TLS), so no password is sent in the clear either way.
    const result = await run(dir, ['end'], {
      env: {
        SUPABASE_URL: url.replace(/^http:/, 'https:'),
        SUPABASE_ANON_KEY: KEY,
        NAMECARD_EMAIL: 'me@example.com',
        NAMECARD_PASSWORD: SECRET,
      },
    });
    expect(result.exitCode).toBe(1);
    const received = await listener.received();
    expect(received).not.toBe('');
    expect(received).not.toContain(SECRET);
  });

  it('no SUPABASE_ANON_KEY: stops naming it (exit 1), and the demo key is never sent there', async () => {
    const result = await run(dir, ['status'], { env: { SUPABASE_URL: url } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `error: \`SUPABASE_ANON_KEY\` is not set, and \`SUPABASE_URL\` ${url} is not on this machine: set it to that project's anon or publishable key (Project Settings, API Keys); the local emulator's demo key is used only for an API on 127.0.0.1 or localhost`,
    );
    expect(await listener.received()).toBe('');
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
          SUPABASE_ANON_KEY: KEY,
          NAMECARD_EMAIL: 'me@example.com',
          NAMECARD_PASSWORD: 'secret-password',
        },
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('`SUPABASE_URL` must be an https: URL');
    } finally {
      await removeDir(dir);
    }
  });
});
