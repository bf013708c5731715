import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { NotificationDelivery } from '../../tool/context/session_tools.js';
import { lazySchema } from '../../tool/lazy_schema.js';

const CHANNEL_NAMES: Record<NotificationDelivery['channel'], string> = {
  osc9: 'the terminal (OSC 9)',
  osc777: 'the terminal (OSC 777)',
  'notify-send': 'notify-send',
  bell: 'the terminal bell',
};

export const pushNotification = buildTool({
  name: 'push_notification',
  inputSchema: lazySchema(() =>
    z.strictObject({
      title: z.string().min(1).max(100).describe('A few words: what happened'),
      body: z.string().max(1000).describe('One or two sentences: what the user should know or do'),
    }),
  ),
  description:
    'Notify the user outside this window: a desktop notification through their terminal or notify-send, or ' +
    'the terminal bell. Use it when long work ends or needs their attention while they may be elsewhere; not ' +
    'for every step.',
  availability: { profiles: ['standard'], feature: 'assistant' },
  kind: 'other',
  userFacingName: () => 'Notify',
  detail: (input) => input.title,
  async call(input, ctx) {
    if (!ctx.notifier) return { isError: true, text: 'Notifications are not available in this session.' };
    const deliveries = await ctx.notifier.notify(input.title, input.body);
    ctx.interaction?.emit({ type: 'notification', title: input.title, body: input.body });
    const reached = deliveries.find((d) => d.ok);
    const failed = deliveries
      .filter((d) => !d.ok)
      .map((d) => `${CHANNEL_NAMES[d.channel]}: ${d.error ?? 'failed'}`);
    if (!reached)
      return {
        isError: true,
        text: `The notification could not be delivered (${failed.join('; ')}). Say it in your reply instead.`,
        data: { deliveries },
      };
    const notes = failed.length > 0 ? ` (not through ${failed.join('; ')})` : '';
    return {
      text: `Notified the user through ${CHANNEL_NAMES[reached.channel]}${notes}.`,
      data: { deliveries },
    };
  },
});
