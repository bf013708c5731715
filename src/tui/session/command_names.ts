/**
 * The slash commands' names, for Tab completion in the prompt. The commands themselves load on
 * their first use, not before the first frame; a test keeps this list equal to theirs.
 */
export const SLASH_COMMAND_NAMES: string[] = [
  'help',
  'mode',
  'model',
  'effort',
  'profile',
  'tools',
  'mcp',
  'hooks',
  'skills',
  'compact',
  'resume',
  'sessions',
  'cost',
  'status',
  'permissions',
  'export',
  'clear',
  'rules',
  'newrule',
  'init',
  'exit',
];
