import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { BUILT_IN_TYPES } from './built_in.js';
import { readClaudeAgent } from './claude_format.js';
import { readCodexAgent } from './codex_format.js';
import { FieldError } from './field_error.js';
import { readGeminiAgent } from './gemini_format.js';
import { readLatheAgent } from './lathe_format.js';
import { readOpencodeAgent } from './opencode_format.js';
import type { TypeReader } from './read_type.js';
import type { AgentOrigin, AgentType, Discovery, DiscoveryOptions } from './types.js';

/** A file this large is no agent definition. */
const MAX_FILE_BYTES = 256 * 1024;

interface Source {
  folder: string;
  extension: '.md' | '.toml';
  origin: Exclude<AgentOrigin, 'built-in'>;
  read: TypeReader;
  /** In the workspace: read only when the user trusts it. */
  inWorkspace: boolean;
}

/** Where types come from, the first winning a name: the workspace's own, the user's, then other tools' files. */
function sources({ workspace, documentsRoot }: DiscoveryOptions): Source[] {
  const inWorkspace = (
    folder: string,
    extension: Source['extension'],
    origin: Source['origin'],
    read: TypeReader,
  ) => ({ folder: join(workspace, folder), extension, origin, read, inWorkspace: true }) satisfies Source;
  return [
    inWorkspace('.agents/agents', '.md', 'lathe', readLatheAgent),
    {
      folder: join(documentsRoot, 'agents'),
      extension: '.md',
      origin: 'user',
      read: readLatheAgent,
      inWorkspace: false,
    },
    inWorkspace('.claude/agents', '.md', 'claude', readClaudeAgent),
    inWorkspace('.gemini/agents', '.md', 'gemini', readGeminiAgent),
    inWorkspace('.opencode/agent', '.md', 'opencode', readOpencodeAgent),
    inWorkspace('.opencode/agents', '.md', 'opencode', readOpencodeAgent),
    inWorkspace('.codex/agents', '.toml', 'codex', readCodexAgent),
  ];
}

/** The agent files of a folder, by name; none when it does not exist. A README is documentation, not a type. */
function agentFiles(source: Source): string[] {
  let names: string[];
  try {
    names = readdirSync(source.folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => extname(name) === source.extension && !/^readme\.md$/i.test(name))
    .sort()
    .map((name) => join(source.folder, name));
}

export function readText(file: string): string {
  const size = statSync(file).size;
  if (size > MAX_FILE_BYTES) throw new FieldError('file', `is larger than ${MAX_FILE_BYTES / 1024} KB`);
  return readFileSync(file, 'utf8');
}

/** The warning for a file that cannot be used, naming the file and the field: `<file>: "<field>" <problem>: not loaded`. */
export function problemLine(file: string, error: unknown): string {
  if (error instanceof FieldError) {
    const field = ['frontmatter', 'file', 'toml'].includes(error.field)
      ? error.field === 'toml'
        ? 'the TOML'
        : `the ${error.field}`
      : `"${error.field}"`;
    return `${file}: ${field} ${error.message}: not loaded`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  return `${file}: cannot be read (${code ?? (error as Error).message}): not loaded`;
}

/** The line that tells an untrusted folder's agent files were passed over, or none. */
function untrustedLine(workspace: string, skipped: Source[]): string | undefined {
  const folders = skipped.filter((source) => agentFiles(source).length > 0);
  if (folders.length === 0) return undefined;
  const where = folders.map((source) => relative(workspace, source.folder)).join(', ');
  return `this folder is not trusted: its agent types (${where}) are not read; run \`lathe trust\` or pass --trust`;
}

/**
 * Every agent type a child can be: the built-ins first, then the custom types of the files, in
 * precedence order. Nothing is dropped unseen: a file that cannot be used, a field that is not
 * applied and a name defined twice each give a warning naming the file.
 */
export function discoverAgentTypes(options: DiscoveryOptions): Discovery {
  const types: AgentType[] = [...BUILT_IN_TYPES];
  const warnings: string[] = [];
  const byName = new Map(types.map((type) => [type.name, type]));
  const all = sources(options);
  for (const source of all) {
    if (source.inWorkspace && !options.includeWorkspace) continue;
    for (const file of agentFiles(source)) {
      let read: ReturnType<TypeReader>;
      try {
        read = source.read(readText(file), basename(file, source.extension));
      } catch (error) {
        warnings.push(problemLine(file, error));
        continue;
      }
      for (const note of read.notes) warnings.push(`${file}: ${note}`);
      if (!read.type) {
        warnings.push(`${file}: ${read.skipped}: not loaded`);
        continue;
      }
      const winner = byName.get(read.type.name);
      if (winner) {
        warnings.push(
          winner.origin === 'built-in'
            ? `${file}: "${read.type.name}" is a built-in type, which wins: rename this one`
            : `${file}: the type "${read.type.name}" is also defined by ${winner.source}, which wins`,
        );
        continue;
      }
      const type: AgentType = { ...read.type, source: file, origin: source.origin };
      byName.set(type.name, type);
      types.push(type);
    }
  }
  if (!options.includeWorkspace) {
    const line = untrustedLine(
      options.workspace,
      all.filter((source) => source.inWorkspace),
    );
    if (line) warnings.push(line);
  }
  return { types, warnings };
}
