import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from '../../../src/permission/shell/index.js';

/**
 * Options of allowlisted programs that write a file or run another program, in their GNU and BSD
 * spellings: each makes the command not read-only. The commands beside them that only read stay
 * read-only, so the check does not refuse the program as a whole.
 */
const WRITING: Array<[string, string]> = [
  // base64 / base32: BSD and macOS write the output file with -o / --output (GNU rejects them).
  ['base64', 'base64 -d -i x.b64 -o .git/hooks/pre-commit'],
  ['base64', 'base64 -o out f'],
  ['base64', 'base64 -oout f'],
  ['base64', 'base64 -do out'],
  ['base64', 'base64 --output out f'],
  ['base64', 'base64 --output=out f'],
  ['base64', 'base64 --decode --input=x --output=out'],
  ['base32', 'base32 -o out f'],
  ['base32', 'base32 --output=out f'],
  // ripgrep: a preprocessor, and -z running decompression programs.
  ['rg', 'rg --pre ./x foo'],
  ['rg', "rg --pre-glob '*.gz' --pre ./x foo"],
  ['rg', "rg --pre-glob='*' foo"],
  ['rg', 'rg -z foo'],
  ['rg', 'rg -nz foo'],
  ['rg', 'rg --search-zip foo'],
  ['rg', 'rg --hostname-bin ./x foo'],
  // tree writes its listing with -o, and 00Tree.html files with -R.
  ['tree', 'tree -o out'],
  ['tree', 'tree -aoout'],
  ['tree', 'tree --output=out'],
  ['tree', 'tree -H . -R'],
  // xxd -r with an output file writes it.
  ['xxd', 'xxd -r x.hex out'],
  ['xxd', 'xxd -r -p x.hex .git/hooks/pre-commit'],
  ['xxd', 'xxd -revert x.hex out'],
  // diff writing its output to a file.
  ['diff', 'diff --output=out a b'],
  ['diff', 'diff --output out a b'],
  ['diff', 'diff -u --outp=out a b'],
  // date setting the clock: GNU -s / --set, an operand without + (BSD and GNU).
  ['date', 'date -s 12:00'],
  ['date', 'date --set 12:00'],
  ['date', 'date --set=12:00'],
  ['date', 'date 202001010000'],
  ['date', 'date -u 1200'],
  ['date', 'date -n 0101'],
  // uniq IN OUT writes OUT (BSD reads an option after the input as the output).
  ['uniq', 'uniq -c in out'],
  ['uniq', 'uniq --count in out'],
  ['uniq', 'uniq - out'],
  ['uniq', 'uniq in -d'],
  // sort writes with -o and temporary files with -T, and runs a compressor.
  ['sort', 'sort -o out f'],
  ['sort', 'sort --output out f'],
  ['sort', 'sort -T .git/hooks f'],
  ['sort', 'sort --temporary-directory=d f'],
  ['sort', 'sort --compress-program=./x f'],
  // file -z / -Z run decompression programs; -C writes a compiled magic file.
  ['file', 'file -z x.gz'],
  ['file', 'file -Z x.gz'],
  ['file', 'file -bz x.gz'],
  ['file', 'file --uncompress x.gz'],
  ['file', 'file --uncompress-noreport x.gz'],
  ['file', 'file --compile -m magic'],
  // sed: BSD's -l takes no value, so a script after it is the script.
  ['sed', "sed -l 'w .git/hooks/pre-commit' p"],
  ['sed', "sed -nl 'w out' p"],
  // git subcommands that take --output (they are all log or blame underneath).
  ['git', 'git shortlog --output=out HEAD'],
  ['git', 'git rev-list --output=out HEAD'],
  ['git', 'git blame --output=out a'],
  ['git', 'git annotate --output out a'],
  ['git', 'git reflog --output=out'],
  ['git', 'git reflog show --output=out'],
  ['git', 'git log --output out'],
  ['git', 'git whatchanged --output=out'],
  ['git', 'git stash show --output=out'],
  // find's writers and runners, GNU and BSD.
  ['find', 'find . -fprint out'],
  ['find', 'find . -fls out'],
  ['find', 'find . -delete'],
  ['find', 'find . -execdir cat {} +'],
  ['find', 'find . -ok cat {} ;'],
  ['find', 'find . -okdir cat {} ;'],
  // env, xargs and the pagers running programs.
  ['env', 'env -S "rm x"'],
  ['env', 'env rm x'],
  ['xargs', 'xargs rm'],
  ['xargs', 'xargs -I{} sh -c "cat {}"'],
  ['less', "less '+!rm x' f"],
  ['less', 'less -O log f'],
  ['more', 'more +/x f'],
  ['awk', 'awk \'BEGIN { system("x") }\''],
  ['awk', 'awk \'{ print > "out" }\' f'],
  ['printf', 'printf -v x y'],
  ['hostname', 'hostname -F file'],
];

/** The same programs reading: each stays read-only. */
const READING = [
  'base64 f',
  'base64 -d x.b64',
  'base64 -i x.b64',
  'base64 -w 0 f',
  'base32 -d f',
  'rg -n foo src',
  'rg -uu --hidden foo',
  "rg -g '*.ts' foo",
  'tree -L 2 -a',
  'xxd -r x.hex',
  'xxd -l 16 f',
  'diff -u a b',
  'diff --old-line-format=x a b',
  'date +%s',
  'date -u',
  'date -d tomorrow +%F',
  'uniq -c in',
  'sort -t, -k2 f',
  'sort -rn f',
  'file -b f',
  "sed -n '1,5p' f",
  "sed -l 80 -n '1,5p' f",
  'git shortlog -sn HEAD',
  'git rev-list --count HEAD',
  'git blame a',
  'git reflog',
  'git log --output-indicator-new=+ -p',
  'find . -name x -print',
  'env',
  'less f',
];

describe('options that write files or run programs make a command not read-only', () => {
  it.each(WRITING)('%s: %s', async (_program, command) => {
    const result = await classifyShellCommand(command);
    expect(result.readOnly, command).toBe(false);
    expect(result.reasons.length).toBeGreaterThan(0);
  });

  it.each(READING)('%s stays read-only', async (command) => {
    const result = await classifyShellCommand(command);
    expect(result.reasons).toEqual([]);
    expect(result.readOnly).toBe(true);
  });
});
