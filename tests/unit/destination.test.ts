import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../shared/core/config.js';
import { ConfigError } from '../../shared/core/errors.js';
import { narrowType } from '../../shared/core/profiles.js';
import { destinationUrl, isAllowedDestination } from '../../shared/core/rules.js';

// Where /go sends a visitor for the entry in force: the profile's URL only on an origin the
// build allows, the build's own targets for main and photo without a URL, main otherwise.

const MAIN = 'https://me.example/card/';
const config = {
  mainUrl: MAIN,
  photoPath: 'photo',
  allowedOrigins: ['https://me.example', 'https://shop.example'] as const,
};
const entry = (type: string, url: string | null) => ({ type: narrowType(type), url });
/** The allowed origins as every face reads them: loadConfig with this main URL and setting. */
const allowedOrigins = (value: string | undefined) =>
  loadConfig({ NAMECARD_MAIN_URL: MAIN, NAMECARD_ALLOWED_ORIGINS: value }).allowedOrigins;

describe('NAMECARD_ALLOWED_ORIGINS', () => {
  test("defaults to the main URL's origin, which is always allowed", () => {
    expect(allowedOrigins(undefined)).toEqual(['https://me.example']);
    expect(allowedOrigins(' https://shop.example , http://127.0.0.1:4174 ')).toEqual([
      'https://me.example',
      'https://shop.example',
      'http://127.0.0.1:4174',
    ]);
    expect(allowedOrigins('*')).toBe('*');
    expect(loadConfig({ NAMECARD_MAIN_URL: MAIN }).allowedOrigins).toEqual(['https://me.example']);
  });

  test.each([
    'https://shop.example/path',
    'ftp://shop.example',
    'shop.example',
    'https://u:p@shop.example',
    'https://shop.example?x=1',
  ])('%s is refused, naming the setting and the expected form', (value) => {
    expect(() => allowedOrigins(value)).toThrow(ConfigError);
    expect(() => allowedOrigins(value)).toThrow(
      /`NAMECARD_ALLOWED_ORIGINS` must be origins such as https:\/\/me\.example,https:\/\/shop\.example/,
    );
  });
});

describe('destinationUrl', () => {
  test("main and photo with no URL of their own follow the build's settings", () => {
    expect(destinationUrl(null, config)).toBe(MAIN);
    expect(destinationUrl(entry('main', null), config)).toBe(MAIN);
    expect(destinationUrl(entry('photo', null), config)).toBe('https://me.example/card/photo');
  });

  test('a URL on an allowed origin is followed', () => {
    expect(destinationUrl(entry('shop', 'https://shop.example/sale?x=1'), config)).toBe(
      'https://shop.example/sale?x=1',
    );
    expect(destinationUrl(entry('photo', 'https://me.example/gallery'), config)).toBe(
      'https://me.example/gallery',
    );
    expect(
      destinationUrl(entry('shop', 'https://any.example/'), { ...config, allowedOrigins: '*' }),
    ).toBe('https://any.example/');
  });

  test.each([
    'https://evil.example/',
    'https://shop.example.evil.example/',
    'http://shop.example/',
    'https://me@shop.example/',
    'javascript:alert(1)',
    'data:text/html,hi',
    '//shop.example/',
    'not a url',
  ])('%s sends visitors to the main URL', (url) => {
    expect(isAllowedDestination(url, config.allowedOrigins)).toBe(false);
    expect(destinationUrl(entry('shop', url), config)).toBe(MAIN);
  });

  test('a destination that is not a string (a hostile answer) sends visitors to the main URL', () => {
    expect(
      destinationUrl({ type: narrowType('shop'), url: ['https://shop.example/'] }, config),
    ).toBe(MAIN);
    expect(destinationUrl({ type: narrowType('shop'), url: 42 }, config)).toBe(MAIN);
  });
});
