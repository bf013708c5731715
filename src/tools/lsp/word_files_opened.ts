import type { ToolName } from '../../config/builtin_tool_names.js';
import type { LanguageServerHandle } from '../../tool/context/language_servers.js';
import type { ToolContext } from '../../tool/types.js';
import { readableFilter } from '../shared/denied_paths.js';
import { filesWithWord } from './word_files.js';

/** Files opened with the server for one rename or search at most: its open documents stay under its limit. */
export const MAX_OPENED_FILES = 80;

/**
 * The files of the server's languages that hold `word` as a whole word (a file a deny rule
 * closes is left out), the first 80 opened with the server: a server sees only the files it
 * is told of (a test folder outside `tsconfig.json`, a project without one), and a rename or a
 * search for references must cover every file that may use the name.
 */
export async function openFilesWithWord(
  server: LanguageServerHandle,
  word: string,
  ctx: Pick<ToolContext, 'workspace' | 'signal' | 'permissions'>,
  tool: ToolName,
): Promise<string[]> {
  if (word === '') return [];
  const readable = readableFilter(ctx, tool);
  const files = (await filesWithWord(word, ctx.workspace, ctx.signal)).filter(
    (file) => server.serves(file) && (readable?.(file) ?? true),
  );
  for (const file of files.slice(0, MAX_OPENED_FILES)) {
    // A file that cannot be read as text is left to the server's own view.
    await server.sync(file).catch(() => undefined);
  }
  return files;
}
