import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The load-cost rule of shared/ (eslint.config.js): /go and `namecard status` may import only
// shared/core/. These lint source text as if it stood in those files, the way `npm run lint`
// would see a change that broke the rule.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('lint: /go and `namecard status` load only shared/core', () => {
  it.each([
    ['site/src/go/main.ts', "import { planEntry } from '../../../shared/calendar/plan.js';"],
    ['site/src/go/main.ts', "import { insertEntry } from '../../../shared/supabase/data.js';"],
    ['site/src/go/main.ts', "import { createClient } from '@supabase/supabase-js';"],
    ['cli/commands/status.ts', "import { toStampEnd } from '../../shared/calendar/time.js';"],
    ['cli/commands/status.ts', "import { listEntries } from '../../shared/supabase/data.js';"],
    ['shared/core/lookup.ts', "import { Temporal } from 'temporal-polyfill';"],
  ])('fails when %s imports a heavier tier: %s', async (file, code) => {
    const messages = await ruleMessages(
      file,
      `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`,
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/path of \/go or `namecard status`/);
  });

  it('passes when they import the core tier', async () => {
    const code =
      "import { targetUrl } from '../../../shared/core/rules.js';\nexport const t = targetUrl;\n";
    expect(await ruleMessages('site/src/go/main.ts', code)).toEqual([]);
  });

  it('lets other files (the manage page, `set`) import every tier', async () => {
    const code =
      "import { planEntry } from '../../../shared/calendar/plan.js';\nexport const p = planEntry;\n";
    expect(await ruleMessages('site/src/manage/CardForm.tsx', code)).toEqual([]);
  });
});
