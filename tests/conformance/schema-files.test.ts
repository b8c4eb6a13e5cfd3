import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildSchemaDatabases,
  dumpSchema,
  MIGRATIONS_DIR,
  schemaDifference,
  schemaPaths,
  type SchemaDatabases,
} from '../../scripts/db-schema.js';
import { ROOT } from '../cli/helpers.js';

// supabase/schemas/ is the current form of the database; supabase/migrations/ the history that
// hosted Supabase and the emulator apply. Both are built on PostgreSQL laid out as Supabase's
// images (migrations and schema files run as the non-superuser postgres) and must agree in
// everything: tables, constraints, indexes, functions, views, triggers, policies, grants,
// comments. When they do not, the failure prints the statements `npm run db:diff` would write.

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('the schema files and the migrations', () => {
  let dbs: SchemaDatabases;

  beforeAll(async () => {
    dbs = await buildSchemaDatabases();
  });
  afterAll(async () => {
    await dbs?.stop();
  });

  test('build the same database, privileges and comments included', async () => {
    const statements = await schemaDifference(dbs.migrated, dbs.declared);
    expect(statements, 'run `npm run db:diff -- <name>` to write them as a migration').toEqual([]);
    const [migrated, declared] = await Promise.all([
      dumpSchema(dbs.migrated),
      dumpSchema(dbs.declared),
    ]);
    expect(declared).toBe(migrated);
  });

  test('a differing grant, comment, function setting or view option is found (the comparison can fail)', async () => {
    await sql(
      dbs.declared,
      `revoke execute on function public.namecard_schema_version() from anon;
       comment on table public.namecard is 'changed';
       alter function private.namecard_local_day(bigint, text) set jit = 'on';
       alter view private.namecard_series_rule reset (security_invoker);`,
    );
    try {
      const statements = await schemaDifference(dbs.migrated, dbs.declared);
      expect(statements.join('\n')).toMatch(
        /revoke execute on function public\.namecard_schema_version\(\) from anon;/,
      );
      expect(statements).toContain(`comment on table public.namecard is 'changed';`);
      expect(statements).toContain(
        "alter function private.namecard_local_day(at_ms bigint, time_zone text) set jit = 'on';",
      );
      expect(await dumpSchema(dbs.declared)).not.toBe(await dumpSchema(dbs.migrated));
      const back = await schemaDifference(dbs.declared, dbs.migrated);
      expect(back).toContain(
        'alter view private.namecard_series_rule set (security_invoker=true);',
      );
    } finally {
      await sql(
        dbs.declared,
        `grant execute on function public.namecard_schema_version() to anon;
         comment on table public.namecard is
           'Name card switches: type main|photo until stamp_end (epoch ms). Newest active entry wins.';
         alter function private.namecard_local_day(bigint, text) reset all;
         alter view private.namecard_series_rule set (security_invoker = true);`,
      );
    }
  });
});

describe('the schema files', () => {
  test('are named in supabase/config.toml, every one of supabase/schemas/', async () => {
    const named = (await schemaPaths()).map((file) => path.basename(file)).sort();
    const present = (await readdir(path.join(ROOT, 'supabase/schemas'))).sort();
    expect(named).toEqual(present);
  });

  test('define each function once, and the weekly expansion filters weekdays in one place', async () => {
    const texts = await Promise.all((await schemaPaths()).map((file) => readFile(file, 'utf8')));
    const all = texts.join('\n');
    const names = [...all.matchAll(/create\s+(?:or\s+replace\s+)?function\s+([\w.]+)\s*\(/gi)].map(
      (m) => m[1]!.toLowerCase(),
    );
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(all.match(/isodow/gi) ?? []).toHaveLength(1);
  });

  test('`npm run db:diff` on an unchanged tree writes nothing', async () => {
    const before = await readdir(MIGRATIONS_DIR);
    // tsx's own bin, not npx: a nested npx under CI's `npx -c` inherits npm_config_call.
    const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
    const { exitCode, stdout, stderr } = await execa(tsx, ['scripts/db-diff.ts', 'unchanged'], {
      cwd: ROOT,
      reject: false,
    });
    expect(stdout, stderr).toContain('No schema changes');
    expect(exitCode).toBe(0);
    expect(await readdir(MIGRATIONS_DIR)).toEqual(before);
  });
});
