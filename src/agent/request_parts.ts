import { findAgentsFiles } from '../config/agents_md.js';
import { definitionForModel, type ToolDefinitionForModel } from '../tool/definition.js';
import { hasTool, isCoordinatorPool } from '../tool/pool.js';
import type { AgentOptions } from './agent_options.js';
import { environmentDetails } from './environment.js';
import { systemPrompt } from './system_prompt.js';
import { describeToolsInText } from './text_tools.js';

/**
 * What every model request of an agent carries besides the conversation: the system prompt and
 * the tool definitions, each made again only when what it is made of changes.
 */
export class RequestParts {
  /**
   * The environment (folder, date, git status) is read once per agent, beside the model's
   * loading: a system prompt that stays the same from prompt to prompt keeps the provider's
   * prompt cache of the conversation valid.
   */
  private environmentText?: Promise<string>;
  /** AGENTS.md files are read once per prompt, not once per request. */
  private agentsFiles?: ReturnType<typeof findAgentsFiles>;
  private cachedSystem?: { key: string; text: string };
  private cachedTools?: { pool: unknown; tools: ToolDefinitionForModel[] | undefined };

  constructor(private readonly options: AgentOptions) {
    this.environmentText = options.environment;
  }

  /** The environment for the system prompt, read on first use. */
  environment(): Promise<string> {
    this.environmentText ??= environmentDetails(this.options.runtime.cwd);
    return this.environmentText;
  }

  /** A new prompt begins: AGENTS.md is read again at its first request. */
  newPrompt(): void {
    this.agentsFiles = undefined;
  }

  /** The AGENTS.md files the prompt's requests carry (read now when no request has read them). */
  currentAgentsFiles(): ReturnType<typeof findAgentsFiles> {
    return this.agentsFiles ?? findAgentsFiles(this.options.runtime.cwd);
  }

  /** The tool definitions for the provider: schemas only; lathe's executor runs the calls. */
  tools(): ToolDefinitionForModel[] | undefined {
    if (!this.options.capabilities.nativeTools) return undefined;
    const { runtime } = this.options;
    const pool = runtime.definedTools ?? runtime.pool;
    if (this.cachedTools?.pool === pool) return this.cachedTools.tools;
    const profile = runtime.conditions.profile;
    const tools = pool.map((tool) => definitionForModel(tool, profile));
    this.cachedTools = { pool, tools };
    return tools;
  }

  /** The system prompt; rebuilt only when the mode, brief mode, the tools, AGENTS.md or the active rules change. */
  async system(): Promise<string> {
    const { runtime, capabilities } = this.options;
    const environment = this.environment();
    const { profile, mode } = runtime.conditions;
    this.agentsFiles ??= findAgentsFiles(runtime.cwd);
    const agentsText = this.agentsFiles.map((f) => `${f.path}\n${f.text}`).join('\n');
    // A conditional rule joins once a matching file is read: the prompt is rebuilt then.
    const rules = runtime.rules?.active() ?? [];
    const rulesText = rules.map((r) => `${r.name} ${r.paths?.join(',') ?? ''}\n${r.text}`).join('\n');
    const brief = runtime.brief?.on === true;
    const defined = runtime.definedTools ?? runtime.pool;
    const key = `${mode}:${brief}:${defined.map((t) => t.name).join(',')}:${agentsText}:${rulesText}`;
    if (this.cachedSystem?.key === key) return this.cachedSystem.text;
    const text = systemPrompt({
      profile,
      mode,
      environment: await environment,
      agentsFiles: this.agentsFiles,
      rules,
      jsonSchema: this.options.jsonSchema,
      instructions: this.options.systemPrompt?.replace,
      appended: this.options.systemPrompt?.append,
      coordinator: isCoordinatorPool(runtime.conditions, runtime.pool),
      brief,
      skills: this.skills(),
      textTools: capabilities.nativeTools
        ? undefined
        : describeToolsInText(defined.map((t) => definitionForModel(t, profile))),
    });
    this.cachedSystem = { key, text };
    return text;
  }

  /** The skills the system prompt lists: only where the model can load them. */
  skills() {
    const { runtime } = this.options;
    return hasTool(runtime.pool, 'load_skill') ? runtime.skills?.forModel : undefined;
  }
}
