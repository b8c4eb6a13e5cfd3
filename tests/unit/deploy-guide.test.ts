import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../shared/core/config.js';

// docs/deploy.md's GitHub Pages workflow builds the site in CI, where a setting that the
// workflow does not pass is silently the default: every setting the build reads must be in its
// `env:` (as a repository variable), and the table of step 6 names them all.

const guide = () => readFile(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

describe('docs/deploy.md', () => {
  it('the GitHub Pages workflow passes every setting the build reads, from Variables', async () => {
    const workflow = /```yaml\n([\s\S]*?)```/.exec(await guide())?.[1] ?? '';
    expect(workflow).toContain('npm run build');
    const passed = [...workflow.matchAll(/^ +([A-Z_]+): \$\{\{ vars\.([A-Z_]+) \}\}$/gm)];
    expect(passed.every((m) => m[1] === m[2])).toBe(true);
    expect(passed.map((m) => m[1]).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("step 6's table names every setting", async () => {
    const text = await guide();
    const step = text.slice(text.indexOf('## 6.'), text.indexOf('## 7.'));
    const named = [...step.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]);
    expect([...named].sort()).toEqual([...SETTING_NAMES].sort());
  });
});
