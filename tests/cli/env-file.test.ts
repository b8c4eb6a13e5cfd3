import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPort, removeDir, run, tempConfigDir } from './helpers.js';

// `namecard` run in the root of a namecard checkout reads its `.env`; anywhere else it does
// not. Each test's folder is both the config folder and the working folder.

let dir: string;
beforeEach(async () => {
  dir = await tempConfigDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const asCheckout = () => writeFile(path.join(dir, 'package.json'), '{"name":"namecard"}\n');

describe('namecard and the project .env', () => {
  it("takes SUPABASE_URL from .env in a namecard checkout's root", async () => {
    await asCheckout();
    const port = await deadPort();
    await writeFile(path.join(dir, '.env'), `SUPABASE_URL=http://127.0.0.1:${port}\n`);
    const { exitCode, stderr } = await run(dir, ['status'], { cwd: dir });
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`Cannot reach http://127.0.0.1:${port}`);
  });

  it('lets the environment win over .env', async () => {
    await asCheckout();
    const [filePort, envPort] = [await deadPort(), await deadPort()];
    await writeFile(path.join(dir, '.env'), `SUPABASE_URL=http://127.0.0.1:${filePort}\n`);
    const { exitCode, stderr } = await run(dir, ['status'], {
      cwd: dir,
      env: { SUPABASE_URL: `http://127.0.0.1:${envPort}` },
    });
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`Cannot reach http://127.0.0.1:${envPort}`);
    expect(stderr).not.toContain(String(filePort));
  });

  it('takes only the names the CLI knows (NAMECARD_DEBUG in .env adds no stack)', async () => {
    await asCheckout();
    await writeFile(path.join(dir, '.env'), 'SUPABASE_URL=nope\nNAMECARD_DEBUG=1\n');
    const { exitCode, stderr } = await run(dir, ['status'], { cwd: dir });
    expect(exitCode).toBe(1);
    expect(stderr).toBe(
      'error: `SUPABASE_URL` must be an http(s) URL such as http://127.0.0.1:54321, got `nope`',
    );
  });

  it("ignores .env in a folder that is not a namecard checkout's root", async () => {
    await writeFile(path.join(dir, 'package.json'), '{"name":"other-app"}\n');
    await writeFile(path.join(dir, '.env'), 'SUPABASE_URL=nope\n');
    const { exitCode, stderr } = await run(dir, ['whoami'], { cwd: dir });
    expect(exitCode).toBe(1);
    expect(stderr).toBe('error: You are not signed in: run `namecard login`');
  });
});
