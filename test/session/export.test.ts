import { describe, expect, it } from 'vitest';
import { exportMarkdown } from '../../src/session/export.js';
import type { SessionEvent } from '../../src/session/log.js';

const fence = '```';

describe('exportMarkdown', () => {
  it('renders a small session exactly', () => {
    const events: SessionEvent[] = [
      {
        type: 'session_start',
        id: '20240101-120000-abcdef',
        time: '2024-01-01T12:00:00.000Z',
        workspace: '/projects/alpha',
        meta: { model: 'claude-x', mode: 'build', prompt: 'Fix the test' },
      },
      { type: 'user_message', text: 'Fix the test\n' },
      { type: 'assistant_text', text: 'Looking at it.' },
      { type: 'assistant_text', text: 'Reading the file first.' },
      { type: 'tool_call', id: 't1', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'request_start', turn: 1 },
      { type: 'tool_start', id: 't1', name: 'read_file' },
      {
        type: 'tool_result',
        id: 't1',
        name: 'read_file',
        result: { isError: false, text: 'const a = 1;\n' },
      },
      { type: 'tool_call', id: 't2', name: 'shell', input: { command: 'npm test' } },
      { type: 'tool_result', id: 't2', name: 'shell', result: { isError: true, text: 'exit 1' } },
      { type: 'model_message', message: { role: 'tool', content: [] } },
      { type: 'mode_change', mode: 'plan' },
      { type: 'plan', markdown: '1. Edit `a.ts`\n2. Run tests' },
      { type: 'report', title: 'Findings', markdown: '- the bug is in `a.ts`' },
      { type: 'compaction', summary: 'Earlier: read a.ts.' },
      { type: 'error', message: 'rate limited\nretrying' },
      { type: 'checkpoint', seq: 12 },
      { type: 'session_end', reason: 'done', usage: { input: 120, output: 30 } },
    ];
    const expected = [
      '# Session 20240101-120000-abcdef',
      '',
      '- Workspace: `/projects/alpha`',
      '- Model: claude-x',
      '- Started: 2024-01-01T12:00:00.000Z',
      '',
      '## User',
      '',
      'Fix the test',
      '',
      '## Assistant',
      '',
      'Looking at it.',
      '',
      'Reading the file first.',
      '',
      '**tool** `read_file`',
      '',
      `${fence}json`,
      '{',
      '  "path": "a.ts"',
      '}',
      fence,
      '',
      '**result** `read_file`',
      '',
      fence,
      'const a = 1;',
      fence,
      '',
      '**tool** `shell`',
      '',
      `${fence}json`,
      '{',
      '  "command": "npm test"',
      '}',
      fence,
      '',
      '**error** from `shell`',
      '',
      fence,
      'exit 1',
      fence,
      '',
      '*Mode changed to plan*',
      '',
      '## Plan',
      '',
      '1. Edit `a.ts`',
      '2. Run tests',
      '',
      '## Report: Findings',
      '',
      '- the bug is in `a.ts`',
      '',
      '## Compacted context',
      '',
      'Earlier: read a.ts.',
      '',
      '> **Error:** rate limited',
      '> retrying',
      '',
      '---',
      '',
      '*Session ended: done*',
      '',
      'Usage: `{"input":120,"output":30}`',
      '',
    ].join('\n');
    expect(exportMarkdown(events)).toBe(expected);
  });

  it('truncates long tool inputs and results', () => {
    const markdown = exportMarkdown([
      { type: 'tool_call', id: 't', name: 'write_file', input: { content: 'x'.repeat(5000) } },
      { type: 'tool_result', id: 't', name: 'write_file', result: { text: 'y'.repeat(3000) } },
    ]);
    expect(markdown).toContain('… [truncated, 5019 chars in total]');
    expect(markdown).toContain(`${'y'.repeat(2000)}\n… [truncated, 3000 chars in total]\n${fence}`);
    expect(markdown).not.toContain('y'.repeat(2001));
  });

  it('uses a longer fence when the result contains backticks', () => {
    const markdown = exportMarkdown([
      { type: 'tool_result', name: 'cat', result: { text: '```ts\ncode\n```' } },
    ]);
    expect(markdown).toBe('**result** `cat`\n\n````\n```ts\ncode\n```\n````\n');
  });

  it('tolerates missing fields and empty input', () => {
    expect(exportMarkdown([])).toBe('');
    expect(exportMarkdown([{ type: 'session_start' }, { type: 'session_end' }])).toBe(
      '# Session (unknown id)\n\n---\n\n*Session ended: unknown*\n',
    );
  });
});
