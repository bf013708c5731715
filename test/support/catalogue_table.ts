import { readFileSync } from 'node:fs';

/** A fact as docs/tools.md writes it: ✓, `dyn`, or an empty cell. */
export type Cell = boolean | 'dynamic';

/** One row of the catalogue table in docs/tools.md. */
export interface CatalogueRow {
  name: string;
  status: string;
  profiles: string[];
  feature?: string;
  readOnly: Cell;
  destructive: Cell;
  concurrencySafe: Cell;
  planModeAllowed: Cell;
  runsInParallel: Cell;
  destroysExisting: Cell;
  refusedInStrictPlan: Cell;
}

const PROFILE_WORDS: Record<string, string> = { std: 'standard', lite: 'lite', simple: 'simple' };
const HEADER =
  '| tool | status | profiles | RO | D | CS | plan | parallel | destroys | strict | what it does |';

function cell(text: string, where: string): Cell {
  if (text === '✓') return true;
  if (text === 'dyn') return 'dynamic';
  if (text === '') return false;
  throw new Error(`${where}: a fact cell holds ✓, dyn or nothing, not "${text}"`);
}

/** The profiles cell: `std, lite + \`feature\`; what else it needs`. */
function profilesOf(text: string): { profiles: string[]; feature?: string } {
  const [offered] = text.split(';');
  const [words, feature] = offered.split('+').map((part) => part.trim());
  const profiles = words
    .split(',')
    .map((word) => PROFILE_WORDS[word.trim()])
    .filter((profile): profile is string => profile !== undefined);
  return { profiles, ...(feature ? { feature: feature.replace(/`/g, '') } : {}) };
}

/** The catalogue table of docs/tools.md, one row per tool, in the order written. */
export function catalogueRows(): CatalogueRow[] {
  const text = readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8');
  const lines = text.split('\n');
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`docs/tools.md has no table headed ${HEADER}`);
  const rows: CatalogueRow[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z_]+)`$/.exec(cells[1])?.[1];
    if (!name) throw new Error(`docs/tools.md: a row names one tool in backticks, not ${cells[1]}`);
    const fact = (i: number) => cell(cells[i], `${name}, column ${i}`);
    rows.push({
      name,
      status: cells[2],
      ...profilesOf(cells[3]),
      readOnly: fact(4),
      destructive: fact(5),
      concurrencySafe: fact(6),
      planModeAllowed: fact(7),
      runsInParallel: fact(8),
      destroysExisting: fact(9),
      refusedInStrictPlan: fact(10),
    });
  }
  return rows;
}
