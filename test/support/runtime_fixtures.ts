import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import { defaultConditions } from '../../src/tool/conditions.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { ReadTracker } from '../../src/tool/read_tracker.js';
import type { ToolContext } from '../../src/tool/types.js';
import { builtinTools } from '../../src/tools/index.js';

/** A fresh temp folder (mode 0700), real path. */
export function tempDir(prefix = 'lathe-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** A fresh temp folder holding the given files (path → content), folders made as needed. */
export function writeTree(files: Record<string, string | Buffer>, prefix?: string): string {
  const dir = tempDir(prefix);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** A tool context over a temp workspace with the given settings, as the runtime would make it. */
export function testContext(
  options: { workspace?: string; settings?: SettingsLayer; yolo?: boolean } = {},
): Omit<ToolContext, 'signal'> {
  const workspace = options.workspace ?? tempDir();
  const documentsRoot = tempDir('lathe-home-');
  const settings = mergeSettings([{ source: 'test', settings: options.settings ?? {} }]);
  return {
    cwd: workspace,
    workspace,
    documentsRoot,
    sessionDir: join(documentsRoot, 'sessions', 'test'),
    conditions: defaultConditions(),
    permissions: new RulePermissionEngine({
      settings,
      workspace,
      documentsRoot,
      cwd: workspace,
      yolo: options.yolo,
      pathRuleTools: pathRuleTools(builtinTools()),
    }),
    readFiles: new ReadTracker(),
    backgroundCommands: new Map(),
  };
}
