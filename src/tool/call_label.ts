import { defaultCallDetail } from './build_tool.js';
import { parseInput } from './run_call.js';
import type { Tool } from './types.js';

/** How a call reads to a person: its tool's title and what the call is about. */
export interface CallLabel {
  /** `Read`, `Run`; the tool's name when no tool is known. */
  verb: string;
  /** `src/a.ts:10+20`, `npm test`; the arguments when the tool says nothing better. */
  detail: string;
  /** The detail is the tool's own (not its arguments as JSON or its path argument). */
  declared: boolean;
}

/**
 * A call's label from its tool's declaration, paths shown through `show`. Calls are shown before
 * they are validated (and after they failed to be): a declaration reads valid input only, and an
 * input it cannot describe is shown by its arguments.
 */
export function callLabel(
  tool: Tool | undefined,
  name: string,
  input: unknown,
  show: (path: string) => string,
): CallLabel {
  if (!tool) return { verb: name, detail: defaultCallDetail(input, show), declared: false };
  const parsed = parseInput(tool, input);
  try {
    if (parsed.ok)
      return {
        verb: tool.userFacingName(parsed.input),
        detail: tool.detail ? tool.detail(parsed.input, show) : defaultCallDetail(parsed.input, show),
        declared: tool.detail !== undefined,
      };
  } catch {
    // Shown by its arguments below.
  }
  return { verb: tool.userFacingName(undefined), detail: defaultCallDetail(input, show), declared: false };
}
