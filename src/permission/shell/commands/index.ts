import type { CommandCheck } from '../options.js';
import { checkAwk } from './awk.js';
import { BASIC_CHECKS } from './basic.js';
import { checkGit } from './git.js';
import { checkNpm } from './npm.js';
import { checkSed } from './sed.js';
import { TEXT_CHECKS } from './text.js';

/** The read-only allowlist: each command's check of its arguments. A command not here is not read-only. */
export const READ_ONLY_COMMANDS: ReadonlyMap<string, CommandCheck> = new Map(
  Object.entries({
    ...BASIC_CHECKS,
    ...TEXT_CHECKS,
    sed: checkSed,
    awk: checkAwk,
    gawk: checkAwk,
    mawk: checkAwk,
    nawk: checkAwk,
    git: checkGit,
    npm: checkNpm,
  }),
);
