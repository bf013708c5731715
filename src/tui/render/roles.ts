/**
 * What a coloured span means. Interface roles first, then the roles of highlighted code (`code`
 * is inline code in prose; the rest colour code blocks).
 */
export type Color =
  | 'muted'
  | 'error'
  | 'success'
  | 'warning'
  | 'accent'
  | 'shell'
  | 'code'
  | 'planMode'
  | 'autoEdits'
  | 'added'
  | 'removed'
  | 'keyword'
  | 'string'
  | 'comment'
  | 'number'
  | 'type'
  | 'constant'
  | 'function'
  | 'property';

/** Backgrounds, named by what they mark: the bands of a diff's lines and of its changed words. */
export type Background = 'removedLine' | 'addedLine' | 'removedWord' | 'addedWord';
