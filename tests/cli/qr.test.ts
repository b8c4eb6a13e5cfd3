import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/harness.js';
import { decodeHalfBlocks, decodePng, halfBlockLines, renderSvg } from '../support/qr.js';
import { atTerminal, removeDir, run, tempConfigDir } from './helpers.js';

// `namecard link` and `namecard qr`: the card link from NAMECARD_SITE_URL (and the base path),
// and its QR code at a terminal and as images, read back by an independent decoder (jsQR).
// No backend: neither command makes a request.

const SITE = 'https://me.example/namecard/';
const LINK = 'https://me.example/namecard/go/';
/** The QR code's link says where the visit came from, so visits count by channel: `?via=qr`. */
const QR_LINK = `${LINK}?via=qr`;

let dir: string;
beforeEach(async () => {
  dir = await tempConfigDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('namecard link', () => {
  it('prints the default card link: the Redirecting.. page `npm start` serves', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['link']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe('http://127.0.0.1:4173/go/');
  });

  it('follows the base path, from the site URL or from NAMECARD_BASE_PATH', async () => {
    const env = { NAMECARD_SITE_URL: 'https://me.example', NAMECARD_BASE_PATH: 'namecard' };
    await expect(run(dir, ['link'], { env })).resolves.toMatchObject({ stdout: LINK });
    const base = await run(dir, ['link'], { env: { NAMECARD_BASE_PATH: '/card/' } });
    expect(base.stdout).toBe('http://127.0.0.1:4173/card/go/');
    const folder = await run(dir, ['link'], { env: { NAMECARD_SITE_URL: SITE.slice(0, -1) } });
    expect(folder.stdout).toBe(LINK);
  });

  it('--nfc prints the link to write on an NFC tag, ?via=nfc', async () => {
    const env = { NAMECARD_SITE_URL: SITE };
    const { exitCode, stdout, stderr } = await run(dir, ['link', '--nfc'], { env });
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${LINK}?via=nfc`);
    const json = await run(dir, ['link', '--nfc', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ link: `${LINK}?via=nfc`, site_url: SITE });
  });

  it('--json prints the link and the site URL as one document', async () => {
    const { exitCode, stdout } = await run(dir, ['link', '--json'], {
      env: { NAMECARD_SITE_URL: SITE },
    });
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ link: LINK, site_url: SITE });
  });

  it('takes --site-url first, then the environment, then the stored config', async () => {
    await writeFile(
      path.join(dir, 'config.json'),
      JSON.stringify({ settings: { NAMECARD_SITE_URL: 'https://stored.example/' } }),
    );
    const stored = await run(dir, ['link']);
    expect(stored.stdout).toBe('https://stored.example/go/');
    const env = { NAMECARD_SITE_URL: 'https://env.example/' };
    expect((await run(dir, ['link'], { env })).stdout).toBe('https://env.example/go/');
    const flag = await run(dir, ['link', '--site-url', 'https://flag.example/'], { env });
    expect(flag.stdout).toBe('https://flag.example/go/');
  });

  it.each([
    ['not a URL', 'me.example', 'must be an http(s) URL'],
    ['another scheme', 'ftp://me.example/', 'must be an http(s) URL'],
    ['a query', 'https://me.example/?ref=card', 'with no ?query or #fragment'],
  ])('refuses a NAMECARD_SITE_URL that is %s naming it, exit 2', async (_what, value, text) => {
    const { exitCode, stdout, stderr } = await run(dir, ['link'], {
      env: { NAMECARD_SITE_URL: value },
    });
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('error: `NAMECARD_SITE_URL` must be');
    expect(stderr).toContain(text);
    expect(stderr).toContain(value);
  });

  it('refuses a bad --site-url naming the flag, exit 2, for link and qr', async () => {
    for (const command of ['link', 'qr']) {
      const { exitCode, stdout, stderr } = await run(dir, [command, '--site-url', 'nope']);
      expect(exitCode, command).toBe(2);
      expect(stdout, command).toBe('');
      expect(stderr, command).toContain(
        '`--site-url` must be an http(s) URL such as https://me.example/, got `nope`',
      );
    }
    const empty = await run(dir, ['link', '--site-url', '']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('`--site-url` must be an http(s) URL');
  });

  it('refuses a site URL whose path is not the base path, naming both settings', async () => {
    const { exitCode, stderr } = await run(dir, ['link'], {
      env: { NAMECARD_SITE_URL: 'https://me.example/other/', NAMECARD_BASE_PATH: '/card/' },
    });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('`NAMECARD_SITE_URL` must be the URL the site is hosted at');
    expect(stderr).toContain('the base path /card/ (NAMECARD_BASE_PATH)');
  });

  it('a bad site URL stops the other commands too, exit 2; other settings still exit 1', async () => {
    const status = await run(dir, ['status'], { env: { NAMECARD_SITE_URL: 'nope' } });
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain('`NAMECARD_SITE_URL` must be an http(s) URL');
    const main = await run(dir, ['link'], { env: { NAMECARD_MAIN_URL: 'nope' } });
    expect(main.exitCode).toBe(1);
    expect(main.stderr).toContain('`NAMECARD_MAIN_URL` must be an http(s) URL');
  });
});

describe('namecard qr', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('--png writes a PNG whose QR code reads exactly the card link', async () => {
    const file = path.join(dir, 'card.png');
    const { exitCode, stdout, stderr } = await run(dir, ['qr', '--png', file], {
      env: { NAMECARD_SITE_URL: SITE },
    });
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`Wrote the QR code of ${QR_LINK} to ${file}`);
    const png = await readFile(file);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(decodePng(png)).toBe(QR_LINK);
    // Big enough to print: at least 1024 px, square.
    const { width, height } = PNG.sync.read(png);
    expect(width).toBeGreaterThanOrEqual(1024);
    expect(height).toBe(width);
  });

  it('--size sets the least width of the PNG; it still reads as the card link', async () => {
    const file = path.join(dir, 'poster.png');
    const { exitCode, stderr } = await run(dir, ['qr', '--png', file, '--size', '2048'], {
      env: { NAMECARD_SITE_URL: SITE },
    });
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    const png = await readFile(file);
    const { width, height } = PNG.sync.read(png);
    // Whole pixels per module: at least the size asked for, less than one module more
    // (the code of this link is 33 modules wide with its quiet zone).
    expect(width).toBeGreaterThanOrEqual(2048);
    expect(width).toBeLessThan(2048 + 33);
    expect(height).toBe(width);
    expect(decodePng(png)).toBe(QR_LINK);
  });

  it.each(['10', '1023', '4097', 'big', '12.5', ''])(
    'refuses --size %j naming the option and its range, exit 2, and writes nothing',
    async (size) => {
      const file = path.join(dir, 'card.png');
      const { exitCode, stdout, stderr } = await run(dir, ['qr', '--png', file, '--size', size]);
      expect(exitCode).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(
        `error: \`--size\` must be a whole number of pixels from 1024 to 4096, got \`${size}\``,
      );
      await expect(stat(file)).rejects.toThrow();
    },
  );

  it('refuses --size without --png, exit 2', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['qr', '--size', '2048']);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("error: `--size` is the PNG's width: use it with `--png <file>`");
  });

  it('refuses a --png name that does not end in .png, naming the option, exit 2', async () => {
    for (const name of ['card.jpg', 'card', 'card.png.txt']) {
      const file = path.join(dir, name);
      const { exitCode, stdout, stderr } = await run(dir, ['qr', '--png', file]);
      expect(exitCode, name).toBe(2);
      expect(stdout, name).toBe('');
      expect(stderr, name).toContain(
        `error: \`--png\` ${file} must be a file name ending in .png: the image is a PNG`,
      );
      await expect(stat(file), name).rejects.toThrow();
    }
    // Any case of the extension is a PNG name.
    const upper = await run(dir, ['qr', '--png', path.join(dir, 'CARD.PNG')]);
    expect(upper.exitCode).toBe(0);
  });

  it('--svg writes valid SVG that Chromium draws as the card link', async () => {
    const file = path.join(dir, 'card.svg');
    const { exitCode } = await run(dir, ['qr', '--svg', file, '--site-url', SITE]);
    expect(exitCode).toBe(0);
    const svg = await readFile(file, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
    await expect(renderSvg(browser, svg)).resolves.toEqual({
      root: 'svg',
      namespace: 'http://www.w3.org/2000/svg',
      errors: 0,
      text: QR_LINK,
    });
  });

  it('refuses to replace a file unless --force, and says so', async () => {
    const file = path.join(dir, 'card.png');
    await writeFile(file, 'keep me');
    const refused = await run(dir, ['qr', '--png', file]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`\`--png\` ${file} exists: add --force to replace it`);
    await expect(readFile(file, 'utf8')).resolves.toBe('keep me');

    const forced = await run(dir, ['qr', '--png', file, '--force']);
    expect(forced.exitCode).toBe(0);
    expect(decodePng(await readFile(file))).toBe('http://127.0.0.1:4173/go/?via=qr');
  });

  it('a file in a missing folder is a clear error, and nothing is written', async () => {
    const file = path.join(dir, 'no-such-folder', 'card.svg');
    const { exitCode, stdout, stderr } = await run(dir, ['qr', '--svg', file]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`\`--svg\` ${file}: the folder ${path.dirname(file)} does not exist`);
    await expect(stat(path.dirname(file))).rejects.toThrow();
  });

  it('writes both images when given both', async () => {
    await mkdir(path.join(dir, 'out'));
    const svg = path.join(dir, 'out', 'card.svg');
    const png = path.join(dir, 'out', 'card.png');
    const { exitCode } = await run(dir, ['qr', '--svg', svg, '--png', png, '--site-url', SITE]);
    expect(exitCode).toBe(0);
    expect(decodePng(await readFile(png))).toBe(QR_LINK);
    expect((await renderSvg(browser, await readFile(svg, 'utf8'))).text).toBe(QR_LINK);
  });

  it('at a terminal, prints a code black on white with a quiet zone that reads as the link', async () => {
    const term = atTerminal(dir, ['qr'], { NAMECARD_SITE_URL: SITE });
    try {
      const { exitCode } = await term.exit();
      expect(exitCode).toBe(0);
      // Explicit colours, so that a dark theme shows the same dark-on-light code.
      expect(term.raw).toContain('\x1b[30m\x1b[107m');
      const screen = stripVTControlCharacters(term.raw);
      const lines = halfBlockLines(screen);
      // The quiet zone: 4 modules (2 lines of half blocks) above, 4 columns at each side.
      expect(lines.slice(0, 2).every((line) => line.trim() === '')).toBe(true);
      expect(lines.every((line) => line.startsWith('    ') && line.endsWith('    '))).toBe(true);
      expect(decodeHalfBlocks(lines)).toBe(QR_LINK);
      expect(screen).toContain(`\n${QR_LINK}`);
    } finally {
      term.kill();
    }
  });

  it('piped, prints the same characters without escape codes', async () => {
    const { exitCode, stdout } = await run(dir, ['qr', '--site-url', SITE]);
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('\x1b');
    expect(decodeHalfBlocks(halfBlockLines(stdout))).toBe(QR_LINK);
    expect(stdout.endsWith(`\n\n${QR_LINK}`)).toBe(true);
  });

  it('piped, says on stderr that a dark terminal shows it inverted and how to print it', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['qr', '--site-url', SITE]);
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('note:');
    expect(stderr).toMatch(/^note: without colours \(stdout is not a terminal\)/);
    expect(stderr).toContain('`namecard qr --png card.png`');
    expect(stderr).toContain('FORCE_COLOR=1');
  });

  it('FORCE_COLOR=1 keeps the black-on-white colours in a pipe (`namecard qr | less -R`)', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['qr', '--site-url', SITE], {
      env: { FORCE_COLOR: '1' },
    });
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('\x1b[30m\x1b[107m');
    expect(decodeHalfBlocks(halfBlockLines(stripVTControlCharacters(stdout)))).toBe(QR_LINK);
    // NO_COLOR still wins.
    const plain = await run(dir, ['qr', '--site-url', SITE], {
      env: { FORCE_COLOR: '1', NO_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\x1b');
  });

  it('the QR library loads for `qr` only: `status` and `link` never load it', async () => {
    const loads = async (args: string[]) => {
      const { stderr } = await run(dir, args, {
        env: { NODE_DEBUG: 'module', SUPABASE_URL: 'http://127.0.0.1:9' },
      });
      return /node_modules\/qrcode\//.test(stderr);
    };
    await expect(loads(['qr'])).resolves.toBe(true);
    await expect(loads(['status'])).resolves.toBe(false);
    await expect(loads(['link'])).resolves.toBe(false);
  });
});
