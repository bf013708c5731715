/** A file-system error in words: a full disk said plainly, anything else by its message. */
export function diskErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is used up';
  return error instanceof Error ? error.message : String(error);
}
