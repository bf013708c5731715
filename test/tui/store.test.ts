import { describe, expect, it } from 'vitest';
import { UiStore } from '../../src/tui/state/store.js';
import { StreamBlocks } from '../../src/tui/state/stream_blocks.js';

const status = {
  mode: 'act' as const,
  autoEdits: false,
  profile: 'standard',
  contextTokens: 0,
  usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 },
};

describe('streamed Markdown blocks', () => {
  it('finishes a block at a blank line, but not inside a code fence', () => {
    const blocks = new StreamBlocks();
    blocks.append('Intro para');
    expect(blocks.takeFinished()).toBeUndefined();
    blocks.append('graph.\n\n```ts\nconst a = 1;\n\nconst b');
    expect(blocks.takeFinished()).toBe('Intro paragraph.\n\n');
    expect(blocks.open).toBe('```ts\nconst a = 1;\n\nconst b');
    expect(blocks.openFence).toBe('```ts');
    blocks.append(' = 2;\n```\n\nAfter.');
    expect(blocks.takeFinished()).toBe('```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n');
    expect(blocks.takeAll()).toBe('After.');
  });
});

describe('the UI store', () => {
  it('prints entries in order: a running tool holds back what comes after it', () => {
    const store = new UiStore(status);
    store.addTool({ id: 't1', name: 'read_file', input: { path: 'a' }, status: 'running' });
    store.add({ kind: 'notice', tone: 'info', text: 'after the tool' });
    store.flush();
    expect(store.getSnapshot().staticItems).toEqual([]);
    store.updateTool('t1', { status: 'ok', resultText: 'x' });
    store.flush();
    expect(store.getSnapshot().staticItems.map((i) => i.kind)).toEqual(['tool', 'notice']);
    expect(store.getSnapshot().live).toEqual([]);
  });

  it('prints finished blocks of a reply while the rest streams, and the rest at its end', () => {
    const store = new UiStore(status);
    store.appendText('First block.\n\nSecond');
    store.flush();
    expect(store.getSnapshot().staticItems).toMatchObject([{ kind: 'assistant', markdown: 'First block.' }]);
    expect(store.getSnapshot().live).toMatchObject([{ kind: 'stream', text: 'Second' }]);
    store.endText();
    store.flush();
    expect(store.getSnapshot().staticItems.at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Second' });
    expect(store.getSnapshot().live).toEqual([]);
  });

  it('coalesces changes into frames', async () => {
    const store = new UiStore(status);
    let frames = 0;
    store.subscribe(() => frames++);
    for (let i = 0; i < 1000; i++) store.appendText('token ');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(frames).toBe(1);
  });

  it('keeps only the newest printed entries in memory: a full batch starts a new <Static>', () => {
    const store = new UiStore(status);
    for (let i = 0; i < 200; i++) {
      store.add({ kind: 'notice', tone: 'info', text: `n${i}` });
      store.flush();
    }
    const snapshot = store.getSnapshot();
    expect(snapshot.staticKey).toBeGreaterThan(0);
    expect(snapshot.staticItems.length).toBeLessThanOrEqual(64);
    expect(snapshot.staticItems.at(-1)).toMatchObject({ text: 'n199' });
  });

  it('puts an approval proposal above the tool line it is about', () => {
    const store = new UiStore(status);
    store.addTool({ id: 't1', name: 'edit_file', input: { path: 'a' }, status: 'running' });
    store.addBefore('t1', { kind: 'proposal', title: 'Edit a', lines: [] });
    store.flush();
    expect(store.getSnapshot().staticItems).toMatchObject([{ kind: 'proposal' }]);
    expect(store.getSnapshot().live).toMatchObject([{ kind: 'tool' }]);
  });
});
