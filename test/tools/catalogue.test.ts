import { describe, expect, it } from 'vitest';
import { latheFacts, staticFacts } from '../../src/tool/static_facts.js';
import { builtinTools } from '../../src/tools/index.js';
import { catalogueRows } from '../support/catalogue_table.js';

describe('docs/tools.md', () => {
  const rows = catalogueRows();
  const byName = new Map(rows.map((row) => [row.name, row]));

  it('has one row per tool', () => {
    expect(byName.size).toBe(rows.length);
  });

  it('marks every registered tool available', () => {
    for (const tool of builtinTools()) expect(byName.get(tool.name)?.status, tool.name).toBe('available');
  });

  it('marks nothing available that is not registered', () => {
    const registered = new Set(builtinTools().map((t) => t.name));
    for (const row of rows)
      if (row.status === 'available') expect(registered.has(row.name), row.name).toBe(true);
  });

  it.each(builtinTools().map((t) => [t.name, t] as const))(
    '%s: profiles, feature, flags and lathe’s own facts as declared',
    (name, tool) => {
      const row = byName.get(name)!;
      expect(row.profiles, 'profiles').toEqual([...tool.availability.profiles]);
      expect(row.feature, 'feature').toBe(tool.availability.feature);
      const flags = staticFacts(tool);
      expect({
        readOnly: row.readOnly,
        destructive: row.destructive,
        concurrencySafe: row.concurrencySafe,
      }).toEqual(flags);
      const own = latheFacts(tool);
      expect({
        planModeAllowed: row.planModeAllowed,
        runsInParallel: row.runsInParallel,
        destroysExisting: row.destroysExisting,
        refusedInStrictPlan: row.refusedInStrictPlan,
      }).toEqual(own);
    },
  );
});
