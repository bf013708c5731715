import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

const stopRequest = z.strictObject({
  type: z.literal('stop_request'),
  reason: z.string().optional().describe('Why the recipient should stop'),
});

const inputSchema = lazySchema(() =>
  z.strictObject({
    to: z
      .string()
      .min(1)
      .describe(
        'A child agent (name or id), a team (every member), "team/member", or a peer (see list_peers)',
      ),
    message: z
      .union([z.string().min(1), stopRequest])
      .describe(
        'Plain text; or {"type": "stop_request", "reason": "…"} to ask the recipient to wrap up and stop',
      ),
  }),
);
type Input = z.infer<typeof inputSchema>;

const isPlainText = (input: Input) => typeof input.message === 'string';

/** What the recipient reads. */
function messageText(input: Input): string {
  if (typeof input.message === 'string') return input.message;
  const why = input.message.reason ? ` Reason: ${input.message.reason}` : '';
  return `[stop request] Finish what you are doing, report what you have, and stop.${why}`;
}

export const sendMessage = buildTool({
  name: 'send_message',
  deferred: true,
  inputSchema,
  description:
    'Send a message to another agent: a child you started, a team, or a peer. A child is named by name or id; ' +
    "a team's message lands in every member's mailbox (team/member for one); a peer is another lathe of this " +
    'user (see list_peers). An unknown or ambiguous recipient is an error listing who can be reached; nothing ' +
    'is sent then. A stop_request asks the recipient to wrap up and stop.',
  availability: { profiles: ['standard'], coordinator: true },
  kind: 'other',
  userFacingName: () => 'Message',
  detail: (input) => `to ${input.to}`,
  // Plain text changes nothing here; a stop request changes what another agent does.
  dynamic: { readOnly: true },
  isReadOnly: isPlainText,
  validateInput: (input) => (messageText(input).trim() ? undefined : 'The message is empty: say something.'),
  async call(input, ctx) {
    if (!ctx.messages)
      return { isError: true, text: 'Messages are not available here: this run has no roster.' };
    try {
      const recipient = await ctx.messages.send(input.to, messageText(input));
      const what = isPlainText(input) ? 'Sent' : 'Sent a stop request';
      return {
        text: `${what} to ${recipient.name} (${recipient.kind}, id ${recipient.id}).`,
        data: recipient,
      };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  },
});
