// The program answers the calls that would ask a person: edits are refused with a reason the
// model reads, and a command that would change something is shown instead of run.
import { type CanUseTool, query } from 'lathe';

const canUseTool: CanUseTool = async (tool, input) => {
  if (tool === 'edit_file' || tool === 'write_to_file') {
    console.log(`refused ${tool}`);
    return { behavior: 'deny', message: 'this program only reviews; describe the change instead' };
  }
  if (tool === 'execute_command') {
    const { command } = input as { command: string };
    console.log(`not running ${command}`);
    return { behavior: 'allow', updatedInput: { command: `echo would run: ${JSON.stringify(command)}` } };
  }
  return { behavior: 'allow' };
};

const { result, permission_denials } = await query({
  prompt: 'Fix the typo in README.md, then publish the package.',
  options: { model: process.env.LATHE_MODEL ?? 'anthropic/claude-sonnet-4-5', canUseTool },
}).result;

console.log(result);
console.log(`${permission_denials.length} call(s) refused`);
