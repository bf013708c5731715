/** What a key press does to the prompt. */
export type EditorAction =
  | { type: 'insert'; text: string }
  | { type: 'paste'; text: string }
  | {
      type:
        | 'submit'
        | 'newline'
        | 'backspace'
        | 'delete'
        | 'left'
        | 'right'
        | 'home'
        | 'end'
        | 'up'
        | 'down'
        | 'wordLeft'
        | 'wordRight'
        | 'deleteWord'
        | 'killStart'
        | 'killEnd'
        | 'complete'
        | 'clear';
    };
