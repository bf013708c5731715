import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { problemLine, readText } from '../agent_types/discover.js';
import { readMarkdownCommand } from './markdown_command.js';
import type { PromptCommand } from './prompt_command.js';
import { readTomlCommand } from './toml_command.js';
import type { CommandDiscovery, Workflow, WorkflowScript } from './types.js';
import { readWorkflow } from './workflow.js';

export interface CommandDiscoveryOptions {
  workspace: string;
  /** `$LATHE_HOME`. */
  documentsRoot: string;
  /** The user's home, for the folders other tools keep there (`~/.claude/commands`). */
  home: string;
  /** Whether the workspace is trusted: its commands and workflows load only then. */
  includeWorkspace: boolean;
}

type Format = 'lathe' | 'claude' | 'gemini' | 'workflow';

interface Source {
  folder: string;
  format: Format;
  inWorkspace: boolean;
  /** Workflow folders may also hold scripts for run_workflow. */
  scripts?: boolean;
}

/** A segment of a command's name: folders give namespaces (`git/commit.md` is `/git:commit`). */
const NAME_PART = /^[a-z0-9][a-z0-9_-]*$/;
/** Folders nested deeper than this are not read (and a link loop ends). */
const MAX_DEPTH = 4;

/** Where commands and workflows come from, the first winning a name: the workspace's, then the user's. */
function sources({ workspace, documentsRoot, home }: CommandDiscoveryOptions): Source[] {
  const at =
    (root: string, inWorkspace: boolean) =>
    (folder: string, format: Format, scripts = false) => ({
      folder: join(root, folder),
      format,
      inWorkspace,
      scripts,
    });
  const ws = at(workspace, true);
  const lathe = at(documentsRoot, false);
  const user = at(home, false);
  return [
    ws('.agents/commands', 'lathe'),
    ws('.claude/commands', 'claude'),
    ws('.gemini/commands', 'gemini'),
    ws('.agents/workflows', 'workflow', true),
    ws('.clinerules/workflows', 'workflow'),
    lathe('commands', 'lathe'),
    user('.claude/commands', 'claude'),
    user('.gemini/commands', 'gemini'),
    lathe('workflows', 'workflow', true),
  ];
}

const extensionOf = (format: Format) => (format === 'gemini' ? '.toml' : '.md');

function entries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

/** The files of a source, by name; commands' folders are read recursively, workflows' are flat. */
function filesOf(source: Source, folder = source.folder, depth = 0): string[] {
  const files: string[] = [];
  const recursive = source.format !== 'workflow';
  for (const entry of entries(folder)) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (recursive && depth < MAX_DEPTH && !entry.name.startsWith('.'))
        files.push(...filesOf(source, path, depth + 1));
    } else if (extname(entry.name) === extensionOf(source.format) && !/^readme\.md$/i.test(entry.name))
      files.push(path);
  }
  return files;
}

/** The scripts of a workflow folder: `*.mjs`, and executable files that are not Markdown. */
function scriptsOf(source: Source): WorkflowScript[] {
  const scripts: WorkflowScript[] = [];
  for (const entry of entries(source.folder)) {
    if (entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(source.folder, entry.name);
    const extension = extname(entry.name);
    if (extension === '.md') continue;
    if (extension === '.mjs') {
      scripts.push({ name: basename(entry.name, extension), path, runner: 'node' });
      continue;
    }
    try {
      const stat = statSync(path);
      if (stat.isFile() && (stat.mode & 0o111) !== 0)
        scripts.push({ name: basename(entry.name, extension), path, runner: 'executable' });
    } catch {
      // a dangling link is no script
    }
  }
  return scripts;
}

/** The command name of a file: its path below the folder, without the extension, `/` read as `:`. */
function nameOf(source: Source, file: string): string {
  return relative(source.folder, file).slice(0, -extname(file).length).split(sep).join(':');
}

/** Every workflow folder, the count of what an untrusted workspace holds: one line, or none. */
function untrustedLine(skipped: Source[]): string | undefined {
  const count = skipped.reduce(
    (sum, source) => sum + filesOf(source).length + (source.scripts ? scriptsOf(source).length : 0),
    0,
  );
  if (count === 0) return undefined;
  return `${count} workspace command${count === 1 ? '' : 's'} and workflow${count === 1 ? '' : 's'} wait for trust: lathe trust (or --trust)`;
}

/**
 * The custom commands, workflows and workflow scripts of the workspace (when trusted) and of the
 * user. A name defined twice keeps the first (the workspace's) with a warning; a file that
 * cannot be used is a warning naming it and the field, never a silent drop.
 */
export function discoverCommands(options: CommandDiscoveryOptions): CommandDiscovery {
  const commands: PromptCommand[] = [];
  const workflows: Workflow[] = [];
  const scripts: WorkflowScript[] = [];
  const warnings: string[] = [];
  const shown = (file: string) =>
    file.startsWith(options.workspace + sep) ? relative(options.workspace, file) : file;
  const byName = new Map<string, PromptCommand>();
  const all = sources(options);
  for (const source of all) {
    if (source.inWorkspace && !options.includeWorkspace) continue;
    for (const file of filesOf(source)) {
      const name = nameOf(source, file);
      if (!name.split(':').every((part) => NAME_PART.test(part))) {
        warnings.push(
          `${shown(file)}: the name "${name}" must be lowercase letters, digits, - and _ (folders give namespaces): not loaded`,
        );
        continue;
      }
      const winner = byName.get(name);
      if (winner) {
        warnings.push(`${shown(file)}: "/${name}" is also defined by ${shown(winner.path)}, which wins`);
        continue;
      }
      let read: { command: PromptCommand; notes: string[]; workflow?: Workflow };
      try {
        const text = readText(file);
        const where = { name, path: file };
        read =
          source.format === 'workflow'
            ? readWorkflow(text, { ...where, shown: shown(file) })
            : source.format === 'gemini'
              ? readTomlCommand(text, where)
              : readMarkdownCommand(text, { ...where, style: source.format });
      } catch (error) {
        warnings.push(problemLine(shown(file), error));
        continue;
      }
      for (const note of read.notes) warnings.push(`${shown(file)}: ${note}`);
      byName.set(name, read.command);
      commands.push(read.command);
      if (read.workflow) workflows.push(read.workflow);
    }
    if (!source.scripts) continue;
    for (const script of scriptsOf(source)) {
      const winner = scripts.find((s) => s.name === script.name);
      if (winner)
        warnings.push(
          `${shown(script.path)}: the workflow script "${script.name}" is also ${shown(winner.path)}, which wins`,
        );
      else scripts.push(script);
    }
  }
  if (!options.includeWorkspace) {
    const line = untrustedLine(all.filter((source) => source.inWorkspace));
    if (line) warnings.push(line);
  }
  return { commands, workflows, scripts, warnings };
}
