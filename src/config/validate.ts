import { agentLimitProblems } from './agent_limits.js';
import { browserSettingsProblems, imageSettingsProblems } from './browser_settings.js';
import { checkpointSettingProblems } from './checkpoint_settings.js';
import { contextSettingProblems } from './context_settings.js';
import { githubSettingsProblems } from './github_settings.js';
import { parseHooks } from './hooks/parse.js';
import { lspSettingProblems } from './lsp_settings.js';
import { replSettingProblems } from './repl_settings.js';
import { SettingsError } from './settings_file.js';
import { APPROVAL_CATEGORIES, MODES, PROFILES, type SettingsLayer, THEME_NAMES } from './types.js';
import { webSettingsProblems } from './web_settings.js';

/**
 * The type of each settings key lathe knows. A value of the wrong type is an error naming the
 * file and the key, never a silent default: a `"sandbox": {"mode": 3}` that fell back to the
 * default would run with a sandbox the user did not choose. Keys lathe does not know are left
 * alone (a newer lathe may know them). Add a key's check here when you add the key.
 */
type Check = (value: unknown) => string | undefined;

const ACTIONS = ['allow', 'ask', 'deny'];
const SANDBOX_MODES = ['read-only', 'workspace-write', 'off'];

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf =
  (choices: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && choices.includes(value)
      ? undefined
      : `must be ${choices.join(', ').replace(/, ([^,]*)$/, ' or $1')} (found ${show(value)})`;
const stringList: Check = (value) =>
  Array.isArray(value) && value.every((v) => typeof v === 'string')
    ? undefined
    : `must be a list of strings (found ${show(value)})`;
const positiveWhole: Check = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1
    ? undefined
    : `must be a whole number of at least 1 (found ${show(value)})`;
const queueAddress: Check = (value) =>
  typeof value === 'string' && (value === 'local' || /^rediss?:\/\//.test(value))
    ? undefined
    : `must be "local" or a redis:// address (found ${show(value)})`;
const boolean: Check = (value) =>
  typeof value === 'boolean' ? undefined : `must be true or false (found ${show(value)})`;

/** Checks each named key of an object section; unknown keys of the section pass unless `closed`. */
function section(
  keys: Record<string, Check>,
  closed?: readonly string[],
): (value: unknown, key: string) => string[] {
  return (value, key) => {
    if (!isObject(value)) return [`"${key}" must be an object (found ${show(value)})`];
    const problems: string[] = [];
    for (const [name, item] of Object.entries(value)) {
      const check = keys[name];
      if (check) {
        const problem = check(item);
        if (problem) problems.push(`"${key}.${name}" ${problem}`);
      } else if (closed) {
        problems.push(`"${key}.${name}" is not known (use ${closed.join(', ')})`);
      }
    }
    return problems;
  };
}

const TOP_LEVEL: Record<string, (value: unknown, key: string) => string[]> = {
  model: (v, k) => (typeof v === 'string' ? [] : [`"${k}" must be a string (found ${show(v)})`]),
  contextWindow: (v, k) =>
    typeof v === 'number' && v > 0 ? [] : [`"${k}" must be a positive number of tokens (found ${show(v)})`],
  profile: (v, k) => [oneOf(PROFILES)(v)].filter(Boolean).map((p) => `"${k}" ${p}`),
  mode: (v, k) => [oneOf(MODES)(v)].filter(Boolean).map((p) => `"${k}" ${p}`),
  strictPlanMode: (v, k) => [boolean(v)].filter(Boolean).map((p) => `"${k}" ${p}`),
  theme: (v, k) => [oneOf(THEME_NAMES)(v)].filter(Boolean).map((p) => `"${k}" ${p}`),
  features: (v, k) =>
    stringList(v) === undefined || (isObject(v) && Object.values(v).every((x) => typeof x === 'boolean'))
      ? []
      : [`"${k}" must be a list of names or an object of true/false (found ${show(v)})`],
  approvals: section(
    Object.fromEntries(APPROVAL_CATEGORIES.map((c) => [c, oneOf(ACTIONS)])),
    APPROVAL_CATEGORIES,
  ),
  permissions: section({ allow: stringList, ask: stringList, deny: stringList }),
  sandbox: section({ mode: oneOf(SANDBOX_MODES), network: boolean }),
  agents: (v) => agentLimitProblems(v),
  hooks: (v) => parseHooks(v, '').problems,
  rules: section({ disabled: stringList }, ['disabled']),
  web: (v) => webSettingsProblems(v),
  browser: (v) => browserSettingsProblems(v),
  images: (v) => imageSettingsProblems(v),
  lsp: (v) => lspSettingProblems(v),
  repl: (v) => replSettingProblems(v),
  context: (v) => contextSettingProblems(v),
  github: (v) => githubSettingsProblems(v),
  checkpoints: (v) => checkpointSettingProblems(v),
  jobs: section({ queue: queueAddress, concurrency: positiveWhole, lockSeconds: positiveWhole }),
};

/** The settings object of `source`, checked; throws a SettingsError naming the file and key. */
export function validateSettings(value: Record<string, unknown>, source: string): SettingsLayer {
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const check = TOP_LEVEL[key];
    if (check && item !== undefined) problems.push(...check(item, key));
  }
  if (problems.length > 0) throw new SettingsError(`${source}: ${problems.join('; ')}`);
  return value as SettingsLayer;
}
