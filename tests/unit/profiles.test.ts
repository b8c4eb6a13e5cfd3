import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { profileChoiceList } from '../../cli/terminal/prompts.js';
import { parseProfile } from '../../shared/calendar/plan.js';
import { DEFAULT_MAIN_URL, loadConfig, SETTING_NAMES } from '../../shared/core/config.js';
import { describeNow, visitorsGet } from '../../shared/core/describe.js';
import {
  MAIN_PROFILE,
  PROFILE_LABELS,
  PROFILE_OPTIONS,
  PROFILE_TYPES,
  PROFILES,
  narrowType,
  readProfile,
} from '../../shared/core/profiles.js';
import { narrowRow, resolveTargets, targetUrl } from '../../shared/core/rules.js';
import { profileLabel } from '../../shared/core/types.js';

// The profile table is the one home of the profile rule: these tests hold every face to it,
// the database's check constraint to it, and every other product file to not naming a type.

const ROOT = join(import.meta.dirname, '..', '..');

describe('the profile table', () => {
  it("holds the spec's profiles, labels, settings and words", () => {
    expect(
      PROFILES.map(({ type, label, visitorsGet, setting, defaultValue }) => ({
        type,
        label,
        visitorsGet,
        setting,
        defaultValue,
      })),
    ).toEqual([
      {
        type: 'main',
        label: 'Main Profile',
        visitorsGet: 'the main site',
        setting: 'NAMECARD_MAIN_URL',
        defaultValue: 'http://127.0.0.1:4174/',
      },
      {
        type: 'photo',
        label: 'Photographer',
        visitorsGet: 'Photographer',
        setting: 'NAMECARD_PHOTO_PATH',
        defaultValue: 'photo',
      },
    ]);
  });

  it("is the profile table's first rows: the migration creates main and photo with these labels", () => {
    // Entries name a row of public.namecard_profile (the profiles migration replaced the literal
    // check constraint); the rows every card starts with are the ones this table describes.
    const dir = join(ROOT, 'supabase', 'migrations');
    const seeds = readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .flatMap((name) => [
        ...readFileSync(join(dir, name), 'utf8').matchAll(
          /insert into public\.namecard_profile \(name, label, url\) values([^;]*);/gi,
        ),
      ]);
    expect(seeds).toHaveLength(1);
    const rows = [...seeds[0]![1]!.matchAll(/\('([^']*)', '([^']*)', null\)/g)].map((m) => ({
      type: m[1],
      label: m[2],
    }));
    expect(rows).toEqual(PROFILES.map(({ type, label }) => ({ type, label })));
  });

  it('is where the CLI choices, the manage options, the labels and the help come from', () => {
    const fromTable = PROFILES.map((p) => ({ value: p.type, label: p.label }));
    expect(PROFILE_OPTIONS).toEqual(fromTable);
    expect(profileChoiceList()).toEqual(
      fromTable.map(({ value, label }) => ({ name: label, value })),
    );
    expect(PROFILE_LABELS).toEqual(Object.fromEntries(PROFILES.map((p) => [p.type, p.label])));
    // The manage form's <select name="profile"> lists the server's profiles, and PROFILE_OPTIONS
    // (these) until they are read.
    const form = readFileSync(join(ROOT, 'site/src/manage/entries/SetForm.tsx'), 'utf8');
    expect(form).toMatch(/\?\? PROFILE_OPTIONS;/);
    expect(form).toMatch(/<select name="profile"[^>]*>[\s\S]*?choices\.map\(/);
    for (const { type, label } of PROFILES) {
      expect(parseProfile(type.toUpperCase())).toBe(type);
      expect(profileLabel(type)).toBe(label);
      expect(visitorsGet(type)).toBe(PROFILES.find((p) => p.type === type)!.visitorsGet);
    }
    expect(() => parseProfile('nothing')).toThrow(`must be ${PROFILE_TYPES.join(' or ')}`);
  });

  it('is where the settings, their defaults and the targets come from', () => {
    for (const p of PROFILES) expect(SETTING_NAMES).toContain(p.setting);
    expect(DEFAULT_MAIN_URL).toBe(MAIN_PROFILE.defaultValue);
    const config = loadConfig({});
    for (const p of PROFILES) {
      expect(config[p.configKey]).toBe(p.defaultValue);
      expect(config.targets[p.type]).toBe(
        p === MAIN_PROFILE ? p.defaultValue : new URL(p.defaultValue, DEFAULT_MAIN_URL).href,
      );
      expect(targetUrl(p.type, config)).toBe(config.targets[p.type]);
    }
    expect(Object.keys(resolveTargets(config)).sort()).toEqual([...PROFILE_TYPES].sort());
  });
});

describe('an unknown stored type', () => {
  it('is narrowed once, at the boundary, and sends visitors to the main site', () => {
    const row = narrowRow({ id: 1, stamp_end: 2, type: 'video' });
    expect(row.type).toBe('video');
    expect(narrowRow({ id: 1, stamp_end: 2, type: 42 }).type).toBe('42');
    const config = loadConfig({});
    expect(targetUrl(row.type, config)).toBe(config.targets[MAIN_PROFILE.type]);
    expect(readProfile(row.type)).toEqual({
      profile: MAIN_PROFILE,
      label: 'video',
      visitorsGet: 'video',
    });
    // The words show what is stored; no entry at all reads as the main site.
    expect(describeNow({ type: narrowType('video'), from: 0, to: null }, 0, 'UTC')).toBe('video');
    expect(visitorsGet(null)).toBe(MAIN_PROFILE.visitorsGet);
  });
});

/** The product's source files: cli/, shared/, site/src, site/build. */
function productFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const dir of ['cli', 'shared', 'site/src', 'site/build']) walk(join(ROOT, dir));
  return files;
}

/** The string literals of a file (comments and docs excluded), read with TypeScript's parser. */
function stringLiterals(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      found.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
    } else if (ts.isJsxText(node)) found.push(node.text.trim());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no product file but the table names a profile', () => {
  it('finds each type as a string literal only in shared/core/profiles.ts', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) =>
      stringLiterals(file)
        .filter((text) => (PROFILE_TYPES as readonly string[]).includes(text))
        .map((text) => `${relative(ROOT, file)}: '${text}'`),
    );
    // The slug of the card a bare /go/ opens is `main` too: a card's slug, not a profile's, and
    // written once, in shared/core/cards.ts.
    const cardSlug = "shared/core/cards.ts: 'main'";
    expect(offenders.filter((o) => o === cardSlug)).toHaveLength(1);
    expect(
      offenders.filter((o) => !o.startsWith('shared/core/profiles.ts:') && o !== cardSlug),
    ).toEqual([]);
    expect(offenders.length).toBeGreaterThan(0); // the check does find the table's own
  });
});
