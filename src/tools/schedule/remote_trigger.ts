import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { RemoteTriggerInfo } from '../../tool/context/schedules.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { scheduleServices } from './schedule_context.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    action: z.enum(['create', 'list', 'revoke']),
    name: z.string().min(1).optional().describe('create: a name to recognise the trigger by'),
    prompt: z.string().min(1).optional().describe('create: the prompt to run when a request brings none'),
    id: z.string().min(1).optional().describe('revoke: the trigger to remove'),
  }),
);

function triggerLine(t: RemoteTriggerInfo): string {
  const label = t.name ? ` "${t.name}"` : '';
  const fired = t.lastFiredAt ? `, last fired ${t.lastFiredAt}` : ', never fired';
  return `${t.id}${label}: POST ${t.url} (runs in ${t.workspace}${fired})`;
}

export const remoteTrigger = buildTool({
  name: 'remote_trigger',
  inputSchema,
  description:
    'Manage triggers that start lathe runs from outside (a CI job, a webhook relay, a script): create gives a ' +
    'URL on 127.0.0.1 and a secret token, shown once. POST the URL with "Authorization: Bearer <token>" and ' +
    'JSON {"prompt": "…"} to start a headless run in this workspace. list shows them; revoke removes one.',
  availability: { profiles: ['standard'], feature: 'remote_triggers' },
  kind: 'other',
  userFacingName: () => 'Remote trigger',
  // lathe's own fact: revoking a trigger ends it for good.
  destroysExisting: (input) => input.action === 'revoke',
  dynamic: { readOnly: true },
  isReadOnly: (input) => input.action === 'list',
  // A trigger lets whoever holds its token start runs: creating one asks as a command would.
  permissionSubject: (input) =>
    input.action === 'create' ? { kind: 'execute', readOnlyCommand: false } : { kind: 'none' },
  validateInput(input) {
    if (input.action === 'revoke' && !input.id)
      return 'revoke needs the id of the trigger (see action list).';
    if (input.action !== 'revoke' && input.id) return 'id applies to revoke only.';
    if (input.action !== 'create' && (input.name || input.prompt))
      return 'name and prompt apply to create only.';
    return undefined;
  },
  async call(input, ctx) {
    const found = scheduleServices(ctx);
    if ('error' in found) return found.error;
    const { services } = found;
    if (input.action === 'create') {
      const { trigger, token } = await services.createTrigger({ name: input.name, prompt: input.prompt });
      const { endpoint } = await services.listTriggers();
      const example = `curl -X POST ${trigger.url} -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '{"prompt": "…"}'`;
      return {
        text:
          `Created ${trigger.id}. The endpoint is ${endpoint}.\nURL: ${trigger.url}\nToken (shown only now; ` +
          `keep it secret): ${token}\nExample: ${example}`,
        data: { ...trigger, token },
      };
    }
    if (input.action === 'revoke') {
      const trigger = await services.revokeTrigger(input.id!);
      if (!trigger) return { isError: true, text: `No trigger ${input.id}; action list shows them.` };
      return { text: `Revoked ${trigger.id}; its token no longer starts runs.`, data: trigger };
    }
    const { triggers, endpoint } = await services.listTriggers();
    const lines = triggers.length
      ? triggers.map(triggerLine).join('\n')
      : 'No remote triggers; action create makes one.';
    return { text: `Endpoint: ${endpoint}\n${lines}`, data: { endpoint, triggers } };
  },
});
