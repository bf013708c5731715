import type { AgentsFile } from '../config/agents_md.js';
import type { Rule } from '../config/rules/index.js';
import { skillListing } from '../config/skills/listing.js';
import type { Skill } from '../config/skills/types.js';
import type { ContextReport, ConversationAccess, SnipRequest } from '../tool/context/conversation.js';
import type { ToolDefinitionForModel } from '../tool/definition.js';
import type { ContextLedger } from './context_ledger.js';
import { contextReport } from './context_report.js';
import { tokenCounter } from './context_tokens.js';
import type { ConversationMessage } from './model_stream.js';
import { snipConversation } from './snip.js';
import { agentsFileSection, ruleSection } from './system_prompt.js';

/** What the next request would carry, as an agent (or a fresh session) has it. */
export interface ContextSource {
  messages: ConversationMessage[];
  /** The system prompt as sent; the sections below are parts of it. */
  system(): Promise<string>;
  agentsFiles(): readonly AgentsFile[];
  rules(): readonly Rule[];
  /** The skills the prompt lists (none where the model cannot load them). */
  skills(): readonly Pick<Skill, 'name' | 'description'>[] | undefined;
  tools(): readonly ToolDefinitionForModel[] | undefined;
  window: number;
  compactAt: number;
  ledger?: ContextLedger;
}

/** What snip needs beyond the source: the prompt being worked on, the log, and who records the change. */
export interface SnipHost {
  latest(): ConversationMessage | undefined;
  sessionId: string;
  /** The conversation changed: the session log records it (resume starts from it). */
  changed(messages: ConversationMessage[]): void;
}

/** The context report of a source. */
export async function inspectContext(source: ContextSource): Promise<ContextReport> {
  const rules = [
    ...source.agentsFiles().map((file) => ({ name: file.path, text: agentsFileSection(file) })),
    ...source
      .rules()
      .filter((rule) => rule.text)
      .map((rule) => ({ name: `rule ${rule.name}`, text: ruleSection(rule) })),
  ];
  const skills = source.skills();
  return contextReport({
    system: await source.system(),
    rules,
    skills: skills ? skillListing(skills) : undefined,
    tools: source.tools(),
    messages: source.messages,
    window: source.window,
    compactAt: source.compactAt,
    lastRequest: source.ledger?.lastRequest,
  });
}

/** ctx_inspect and snip over a running agent's conversation. */
export function conversationAccess(source: ContextSource, host?: SnipHost): ConversationAccess {
  return {
    inspect: () => inspectContext(source),
    ...(host
      ? {
          snip: async (request: SnipRequest) => {
            const before = source.messages.length;
            const outcome = snipConversation(source.messages, request, {
              count: await tokenCounter(),
              logHint: `lathe sessions show ${host.sessionId}`,
              latest: host.latest(),
            });
            if (outcome.ok) {
              source.ledger?.snipped(outcome.freed, source.messages.length - before);
              host.changed(source.messages);
            }
            return outcome;
          },
        }
      : {}),
  };
}
