import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { SettingView } from '../../tool/context/session_tools.js';
import { lazySchema } from '../../tool/lazy_schema.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    action: z
      .enum(['get', 'set', 'list'])
      .describe('list: every setting; get: one key or section; set: change a key'),
    key: z
      .string()
      .min(1)
      .optional()
      .describe('A settings key in dotted form, e.g. "web.timeouts.total" (get, set)'),
    value: z
      .unknown()
      .optional()
      .describe('The new value, in the units of the settings files (seconds for timeouts) (set)'),
  }),
);

type ConfigInput = z.infer<typeof inputSchema>;

const show = (value: unknown) => (value === undefined ? '(not set)' : JSON.stringify(value));

function line(view: SettingView): string {
  return `${view.key} = ${show(view.value)}${view.settable ? '  (settable)' : ''}`;
}

export const config = buildTool({
  name: 'config',
  inputSchema,
  description:
    "View or change this session's settings. `list` shows every setting with its value, marking those a " +
    'session may change; `get` shows one key or a section (`web`). `set` changes a settable key for the rest of ' +
    'the session (nothing is written to a settings file) after the user approves; the value is checked as a ' +
    'settings file would be. Keys that guard the user (permissions, approvals, sandbox, hooks, mode, features, …) ' +
    'cannot be set: ask the user instead.',
  availability: { profiles: ['standard'], feature: 'internal' },
  kind: 'other',
  userFacingName: () => 'Config',
  detail: (input) =>
    input.action === 'set'
      ? `set ${input.key ?? ''} = ${show(input.value)}`
      : `${input.action}${input.key ? ` ${input.key}` : ''}`,
  askVerb: 'Change the setting',
  isReadOnly: (input: ConfigInput) => input.action !== 'set',
  dynamic: { readOnly: true },
  validateInput(input, ctx) {
    if (input.action === 'list') return undefined;
    if (!input.key)
      return `config ${input.action} needs a key, e.g. {"action": "${input.action}", "key": "web.maxBytes"}.`;
    if (input.action === 'get') return undefined;
    if (input.value === undefined) return `config set needs a value for ${input.key}.`;
    return ctx.sessionSettings?.problem(input.key, input.value);
  },
  checkPermissions(input, ctx) {
    if (input.action !== 'set' || ctx.sessionSettings?.preApproved) return { behavior: 'allow' };
    return {
      behavior: 'ask',
      reason: `config would set ${input.key} to ${show(input.value)} for this session`,
      hint: 'rerun with --yolo, or change it in a settings file',
    };
  },
  async call(input, ctx) {
    const settings = ctx.sessionSettings;
    if (!settings) return { isError: true, text: 'Settings cannot be read or changed in this session.' };
    if (input.action === 'list') {
      const views = settings.list();
      return { text: views.map(line).join('\n'), data: { settings: views } };
    }
    const key = input.key ?? '';
    if (input.action === 'get') {
      const view = settings.get(key);
      if (!view) return { isError: true, text: `lathe has no setting ${key}; config list shows them all.` };
      const note = view.settable ? ' (a session may change it)' : ` (not settable: ${view.why})`;
      return {
        text: `${view.key} = ${JSON.stringify(view.value, null, 2) ?? '(not set)'}${note}`,
        data: view,
      };
    }
    const { before, after } = settings.set(key, input.value);
    return {
      text: `Set ${key} to ${show(after)} for this session (it was ${show(before)}).`,
      data: { key, before, after },
    };
  },
});
