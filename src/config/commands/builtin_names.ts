/**
 * The built-in slash commands' names: Tab completion in the UI, and the names a custom command
 * cannot take (`lathe -p "/init"` goes to the model as typed). The commands themselves load on
 * their first use in the UI; a test keeps this list equal to theirs.
 */
export const SLASH_COMMAND_NAMES: string[] = [
  'help',
  'mode',
  'model',
  'theme',
  'effort',
  'profile',
  'tools',
  'mcp',
  'hooks',
  'skills',
  'compact',
  'context',
  'pin',
  'resume',
  'sessions',
  'cost',
  'status',
  'permissions',
  'export',
  'clear',
  'undo',
  'rewind',
  'rules',
  'newrule',
  'init',
  'exit',
];
