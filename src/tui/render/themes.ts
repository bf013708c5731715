import { THEME_NAMES, type ThemeName } from '../../config/types.js';
import type { Background, Color } from './roles.js';

/**
 * The three themes: each gives every colour role and background its SGR parameters. `dark` is the
 * 16-colour palette most terminals tune for a dark background; `light` uses 256-colour tones that
 * stay readable on white; `plain` has no colour codes at all (quiet text is dim, changed words in
 * a diff are underlined instead of banded).
 */
export { THEME_NAMES, type ThemeName };

export interface Theme {
  name: ThemeName;
  codes: Record<Color | Background, string>;
}

export const THEMES: Record<ThemeName, Theme> = {
  dark: {
    name: 'dark',
    codes: {
      muted: '90',
      error: '31',
      success: '32',
      warning: '33',
      accent: '36',
      shell: '35',
      code: '36',
      planMode: '36',
      autoEdits: '32',
      added: '32',
      removed: '31',
      keyword: '35',
      string: '32',
      comment: '90',
      number: '33',
      type: '36',
      constant: '33',
      function: '34',
      property: '36',
      removedLine: '48;5;52',
      addedLine: '48;5;22',
      removedWord: '48;5;124',
      addedWord: '48;5;28',
    },
  },
  light: {
    name: 'light',
    codes: {
      muted: '38;5;243',
      error: '38;5;160',
      success: '38;5;28',
      warning: '38;5;130',
      accent: '38;5;25',
      shell: '38;5;127',
      code: '38;5;31',
      planMode: '38;5;25',
      autoEdits: '38;5;28',
      added: '38;5;28',
      removed: '38;5;160',
      keyword: '38;5;127',
      string: '38;5;28',
      comment: '38;5;244',
      number: '38;5;130',
      type: '38;5;31',
      constant: '38;5;130',
      function: '38;5;25',
      property: '38;5;31',
      removedLine: '48;5;224',
      addedLine: '48;5;194',
      removedWord: '48;5;217',
      addedWord: '48;5;157',
    },
  },
  plain: {
    name: 'plain',
    codes: {
      muted: '2',
      error: '',
      success: '',
      warning: '',
      accent: '',
      shell: '',
      code: '',
      planMode: '',
      autoEdits: '',
      added: '',
      removed: '',
      keyword: '',
      string: '',
      comment: '2',
      number: '',
      type: '',
      constant: '',
      function: '',
      property: '',
      removedLine: '',
      addedLine: '',
      removedWord: '4',
      addedWord: '4',
    },
  },
};

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}
