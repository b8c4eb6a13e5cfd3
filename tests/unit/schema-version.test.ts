import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../emulator/migrations.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_FUNCTION } from '../../shared/core/schema-version.js';

// `namecard doctor` and the site's namecard.json compare the database's
// namecard_schema_version() with SCHEMA_VERSION: that only tells the truth when the newest
// migration is the one that set both. A migration added without bumping them fails here.
describe('the schema version', () => {
  it("is the newest migration's own version, returned by the function that migration defines", async () => {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
    const newest = files.at(-1)!;
    const version = /^(\d+)_/.exec(newest)?.[1];
    expect(version, `${newest} must be named <version>_<name>.sql`).toBeDefined();
    expect(SCHEMA_VERSION, 'shared/core/schema-version.ts').toBe(version);

    const sql = await readFile(path.join(MIGRATIONS_DIR, newest), 'utf8');
    // Written by hand (`$$`) or by `npm run db:diff` (migra writes pg_get_functiondef's
    // `$function$`).
    const definition = new RegExp(
      `create\\s+or\\s+replace\\s+function\\s+public\\.${SCHEMA_VERSION_FUNCTION}\\s*\\(\\s*\\)\\s*returns\\s+text[\\s\\S]*?\\$(\\w*)\\$\\s*select\\s+'(\\d+)'(?:::text)?\\s*;?\\s*\\$\\1\\$`,
      'i',
    ).exec(sql);
    expect(
      definition,
      `${newest} must (re)define public.${SCHEMA_VERSION_FUNCTION}()`,
    ).not.toBeNull();
    expect(definition![2]).toBe(version);
    // The schema files say the same (supabase/schemas/version.sql).
    const declared = await readFile(path.join(MIGRATIONS_DIR, '../schemas/version.sql'), 'utf8');
    expect(declared).toContain(`select '${version}'::text`);
  });
});
