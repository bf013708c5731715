import { describe, expect, it } from 'vitest';
import { PendingNotes } from '../../src/tool/pending_notes.js';

describe('pending notes', () => {
  it('give nothing until a note is in, then each note once, in the order they were queued', async () => {
    const notes = new PendingNotes();
    let first!: (text: string) => void;
    notes.add('a', new Promise((resolve) => (first = resolve)));
    notes.add('b', Promise.resolve('second'));
    await Promise.resolve();
    expect(notes.take()).toBe('second');
    expect(notes.take()).toBeUndefined();
    first('first');
    await notes.settled();
    expect(notes.take()).toBe('first');
  });

  it('keep only the newest note of a key, and drop a note a newer answer replaced', async () => {
    const notes = new PendingNotes();
    notes.add('a', Promise.resolve('old'));
    notes.add('a', Promise.resolve('new'));
    notes.add('b', Promise.resolve('stale'));
    notes.drop('b');
    await notes.settled();
    expect(notes.take()).toBe('new');
  });

  it('forget notes that come to nothing or fail', async () => {
    const notes = new PendingNotes();
    notes.add('a', Promise.resolve(undefined));
    notes.add('b', Promise.reject(new Error('gone')));
    await notes.settled();
    expect(notes.take()).toBeUndefined();
  });
});
