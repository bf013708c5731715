import { findAgentsFiles } from '../config/agents_md.js';
import { environmentDetails } from './environment.js';

/** What the system prompt says of where the agent works: read once per prompt. */
export interface PromptContext {
  environment: string;
  agentsFiles: ReturnType<typeof findAgentsFiles>;
}

/** Starts reading the prompt context: git runs in the background while the caller goes on. */
export function readPromptContext(cwd: string): Promise<PromptContext> {
  const environment = environmentDetails(cwd);
  const read = (async () => {
    const agentsFiles = findAgentsFiles(cwd);
    return { environment: await environment, agentsFiles };
  })();
  // Awaited later, by the request that needs it; a failure surfaces there, not as unhandled.
  read.catch(() => undefined);
  return read;
}
