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
/** The table's columns, in order: the bound is the fifth, the buffers the last. */
const COLUMNS = ['reach', 'who', 'what', 'worst case', 'bound', 'buffers ≤'] as const;

/**
 * The inventory table of docs/security.md, row by row: the rows of its section (up to the next
 * heading) whose first cell is a name in backticks, in the columns of COLUMNS.
 * @throws when the section or its table is missing, or a row has another number of cells, no
 *   name or no buffer bound
 */
export function readInventory(): InventoryEntry[] {
  const text = readFileSync(SECURITY_MD, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) throw new Error(`docs/security.md has no "${HEADING}" section`);
  const [, ...section] = text.slice(start).split('\n');
  const end = section.findIndex((line) => line.startsWith('#'));
  const rows = section.slice(0, end < 0 ? undefined : end).filter((line) => line.startsWith('| `'));
  if (rows.length === 0) throw new Error(`"${HEADING}" has no table`);
  return rows.map((row) => {
    const cells = row.split(' | ').map((cell) => cell.replace(/^\|/, '').replace(/\|$/, '').trim());
    const at = (column: (typeof COLUMNS)[number]) => cells[COLUMNS.indexOf(column)] ?? '';
    const name = /^`([^`]+)`$/.exec(at('reach'))?.[1];
    const buffers = Number(at('buffers ≤').replace(/,/g, ''));
    if (cells.length !== COLUMNS.length || !name || !Number.isInteger(buffers))
      throw new Error(`an inventory row is malformed: ${row}`);
    return { name, bounded: !at('bound').startsWith('**open**'), buffers };
  });
}
