/** Upper-case variables that only change formatting, language or time zone. */
const HARMLESS_VARIABLES = new Set([
  'LANG',
  'LANGUAGE',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLORTERM',
  'TERM',
  'COLUMNS',
  'LINES',
  'TIME_STYLE',
]);

/** Lower-case names zsh ties to PATH-like variables, in case the command reaches zsh. */
const ZSH_TIED = new Set(['path', 'cdpath', 'fpath', 'manpath', 'mailpath', 'module_path', 'psvar']);

/**
 * Whether setting this variable is harmless. Programs read upper-case variables to decide what to
 * run or load (PATH, LD_PRELOAD, GIT_*, PAGER, EDITOR, BASH_ENV, IFS, RIPGREP_CONFIG_PATH, …), and
 * the list is open-ended, so only known-harmless upper-case names pass. Lower-case names are the
 * shell's own (`for f in …`, `read line`) and are not conventionally read by programs.
 */
export function isHarmlessVariable(name: string): boolean {
  if (HARMLESS_VARIABLES.has(name) || /^LC_[A-Z]+$/.test(name)) return true;
  return /^[a-z_][a-z0-9_]*$/.test(name) && !ZSH_TIED.has(name);
}
