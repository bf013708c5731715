import { resolve } from 'node:path';
import { documentsRoot } from '../../config/paths.js';
import { readTrustList, realFolder, trustFolder, trustingEntry, untrustFolder } from '../../config/trust.js';

const out = (text: string) => process.stdout.write(`${text}\n`);
const usage = (text: string) => {
  process.stderr.write(`lathe: ${text}\n`);
  return 2;
};

function list(root: string): number {
  const { trusted, declined } = readTrustList(root);
  if (trusted.length === 0) out('No trusted folders. Trust one with: lathe trust [FOLDER]');
  for (const folder of trusted) out(folder);
  if (declined.length > 0) out(`Declined in the UI (not trusted, not asked again): ${declined.join(', ')}`);
  return 0;
}

function remove(root: string, folder: string): number {
  const result = untrustFolder(root, folder);
  const stays = result.coveredBy
    ? `; it stays trusted through ${result.coveredBy} (lathe trust --remove ${result.coveredBy})`
    : '';
  if (!result.removed) {
    process.stderr.write(`lathe: ${result.folder} is not in the trusted list${stays}\n`);
    return 1;
  }
  out(`No longer trusted: ${result.folder}${stays}`);
  return 0;
}

function add(root: string, folder: string): number {
  const real = realFolder(folder);
  const covering = trustingEntry(root, folder);
  if (covering) {
    out(`${real} is already trusted${covering !== real ? ` through ${covering}` : ''}.`);
    return 0;
  }
  try {
    const { folder: trusted } = trustFolder(root, folder);
    out(`Trusted ${trusted} and the folders below it: their MCP servers and settings apply.`);
    return 0;
  } catch (error) {
    return usage((error as Error).message);
  }
}

/** `lathe trust [FOLDER]`, `lathe trust --list`, `lathe trust --remove [FOLDER]`. */
export function trustCommand(folder: string | undefined, opts: { list?: boolean; remove?: boolean }): number {
  const root = resolve(documentsRoot());
  if (opts.list && opts.remove) return usage('trust takes --list or --remove, not both');
  if (opts.list) {
    if (folder) return usage('trust --list takes no folder');
    return list(root);
  }
  const target = folder ?? process.cwd();
  return opts.remove ? remove(root, target) : add(root, target);
}
