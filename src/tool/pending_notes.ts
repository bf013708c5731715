/**
 * What a call starts that comes in after its result (an edit's diagnostics from a language
 * server still starting): each note, once in, joins the next tool result or the next model
 * request, whichever comes first, so the model sees it without the call waiting for it. One
 * queue per agent; a note of the same key (the same files) replaces the one before it.
 */
export class PendingNotes {
  private readonly notes = new Map<string, { text?: string; arrived: Promise<void> }>();

  /** Queues what `later` resolves to; an empty text is dropped. */
  add(key: string, later: Promise<string | undefined>): void {
    const note: { text?: string; arrived: Promise<void> } = { arrived: Promise.resolve() };
    this.notes.delete(key);
    this.notes.set(key, note);
    note.arrived = later.then(
      (text) => {
        if (this.notes.get(key) !== note) return;
        if (text) note.text = text;
        else this.notes.delete(key);
      },
      () => {
        if (this.notes.get(key) === note) this.notes.delete(key);
      },
    );
  }

  /** Forgets a note not in yet: a newer answer about the same files was given. */
  drop(key: string): void {
    this.notes.delete(key);
  }

  /** The notes that are in, taken off the queue, as one text; undefined when none is. */
  take(): string | undefined {
    const arrived: string[] = [];
    for (const [key, note] of this.notes) {
      if (note.text === undefined) continue;
      arrived.push(note.text);
      this.notes.delete(key);
    }
    return arrived.length > 0 ? arrived.join('\n\n') : undefined;
  }

  /** Resolves once every note queued now is in (or dropped). */
  async settled(): Promise<void> {
    await Promise.all([...this.notes.values()].map((note) => note.arrived));
  }
}
