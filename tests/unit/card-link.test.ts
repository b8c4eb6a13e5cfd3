import { describe, expect, it } from 'vitest';
import {
  cardLink,
  DEFAULT_SITE_URL,
  QR_PNG_MIN_SIZE,
  qrPngScale,
} from '../../shared/core/card-link.js';
import { loadConfig } from '../../shared/core/config.js';
import { ConfigError } from '../../shared/core/errors.js';

describe('cardLink', () => {
  it.each([
    ['https://me.example', '/', 'https://me.example/go/'],
    ['https://me.example/', '/', 'https://me.example/go/'],
    ['https://me.example/namecard', '/', 'https://me.example/namecard/go/'],
    ['https://me.example/namecard/', '/', 'https://me.example/namecard/go/'],
    ['https://me.example', '/card/', 'https://me.example/card/go/'],
    ['https://me.example/card/', '/card/', 'https://me.example/card/go/'],
    ['https://me.example/card', '/card/', 'https://me.example/card/go/'],
    ['http://127.0.0.1:4173/', '/a/b/', 'http://127.0.0.1:4173/a/b/go/'],
  ])('%s with base path %s → %s', (site, base, link) => {
    expect(cardLink(site, base)).toBe(link);
  });

  it.each([
    ['https://me.example/other/', '/card/'],
    ['https://me.example/x/card/', '/card/'],
    ['https://me.example/?ref=card', '/'],
    ['https://me.example/#top', '/'],
  ])('refuses %s with base path %s, naming NAMECARD_SITE_URL', (site, base) => {
    let error: unknown;
    try {
      cardLink(site, base);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe('NAMECARD_SITE_URL');
    expect((error as ConfigError).message).toContain(`got \`${site}\``);
  });
});

describe('loadConfig: the site URL and the card link', () => {
  it('defaults to what `npm start` serves, under the base path', () => {
    expect(loadConfig({})).toMatchObject({
      siteUrl: DEFAULT_SITE_URL,
      basePath: '/',
      cardLink: 'http://127.0.0.1:4173/go/',
    });
    expect(loadConfig({ NAMECARD_BASE_PATH: 'card' })).toMatchObject({
      siteUrl: 'http://127.0.0.1:4173/card/',
      basePath: '/card/',
      cardLink: 'http://127.0.0.1:4173/card/go/',
    });
  });

  it('takes the base path from the site URL when NAMECARD_BASE_PATH is unset (GitHub Pages)', () => {
    for (const [site, base] of [
      ['https://me.github.io/namecard/', '/namecard/'],
      ['https://me.github.io/namecard', '/namecard/'],
      ['https://me.example/a/b/', '/a/b/'],
      ['https://me.example/', '/'],
      ['https://me.example', '/'],
    ] as const) {
      for (const unset of [undefined, '', ' ']) {
        expect(
          loadConfig({ NAMECARD_SITE_URL: site, NAMECARD_BASE_PATH: unset }),
          site,
        ).toMatchObject({ basePath: base, siteUrl: new URL(base, site).href });
      }
    }
    expect(loadConfig({ NAMECARD_SITE_URL: 'https://me.github.io/namecard/' }).cardLink).toBe(
      'https://me.github.io/namecard/go/',
    );
  });

  it('keeps a NAMECARD_BASE_PATH that agrees with the site URL', () => {
    expect(
      loadConfig({
        NAMECARD_SITE_URL: 'https://me.github.io/namecard/',
        NAMECARD_BASE_PATH: 'namecard',
      }).basePath,
    ).toBe('/namecard/');
  });

  it('refuses NAMECARD_BASE_PATH=/ against a site URL with a path, naming NAMECARD_BASE_PATH', () => {
    let error: unknown;
    try {
      loadConfig({ NAMECARD_SITE_URL: 'https://me.github.io/namecard/', NAMECARD_BASE_PATH: '/' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe('NAMECARD_BASE_PATH');
    expect((error as ConfigError).message).toBe(
      "`NAMECARD_BASE_PATH` is /, but `NAMECARD_SITE_URL` https://me.github.io/namecard/ is under /namecard/: the pages would load their scripts from the host's /assets/, not from /namecard/assets/. Set NAMECARD_BASE_PATH=/namecard/, or leave it unset to take the site URL's path",
    );
  });

  it('refuses a site URL whose path cannot be a base path, naming NAMECARD_SITE_URL', () => {
    expect(() => loadConfig({ NAMECARD_SITE_URL: 'https://me.example/my%20card/' })).toThrow(
      "`NAMECARD_SITE_URL`'s path /my%20card/ cannot be the site's base path",
    );
  });

  it('refuses a site URL that is not an absolute http(s) URL, naming it', () => {
    for (const value of ['me.example', 'ftp://me.example/', 'https://user:pw@me.example/']) {
      expect(() => loadConfig({ NAMECARD_SITE_URL: value }), value).toThrow(
        /^`NAMECARD_SITE_URL` must be an http\(s\) URL such as https:\/\/me\.example\//,
      );
    }
  });
});

describe('qrPngScale', () => {
  it('gives whole pixels per module for an image at least the size asked for', () => {
    expect(qrPngScale(33)).toBe(32); // 1056 px
    expect(qrPngScale(41, 1024)).toBe(25); // 1025 px
    expect(qrPngScale(32, 1024)).toBe(32); // exactly 1024 px
    for (const modules of [21, 33, 57, 177 + 8]) {
      const width = modules * qrPngScale(modules);
      expect(width).toBeGreaterThanOrEqual(QR_PNG_MIN_SIZE);
      expect(width).toBeLessThan(QR_PNG_MIN_SIZE + modules);
    }
  });
});
