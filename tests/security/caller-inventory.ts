import { readFileSync } from 'node:fs';

/** One row of docs/security.md's inventory ("What each caller may reach"). */
export interface InventoryEntry {
  /** `public.name(argtypes)` for a function, `public.name` for a relation. */
  name: string;
  /** False when the bound column says **open** (no bound by arguments yet). */
  bounded: boolean;
  /** The most shared buffers a call may read (EXPLAIN (ANALYZE, BUFFERS), as its caller). */
  buffers: number;
}

const SECURITY_MD = new URL('../../docs/security.md', import.meta.url);
const HEADING = '### What each caller may reach';

/**
 * The inventory table of docs/security.md, row by row.
 * @throws when the section or its table is missing, or a row has no name or buffer bound
 */
export function readInventory(): InventoryEntry[] {
  const text = readFileSync(SECURITY_MD, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) throw new Error(`docs/security.md has no "${HEADING}" section`);
  const rows = text
    .slice(start)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  if (rows.length === 0) throw new Error(`"${HEADING}" has no table`);
  return rows.map((row) => {
    const cells = row.split(' | ').map((cell) => cell.replace(/^\|/, '').replace(/\|$/, '').trim());
    const name = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    const buffers = Number((cells.at(-1) ?? '').replace(/,/g, ''));
    if (!name || !Number.isInteger(buffers))
      throw new Error(`an inventory row is malformed: ${row}`);
    return { name, bounded: !cells[4]?.startsWith('**open**'), buffers };
  });
}
