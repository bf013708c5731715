import { expect, it } from 'vitest';
import { needs } from '../required_programs.js';

needs('tmux')('a terminal test', () => {
  it('runs tmux', () => expect(true).toBe(true));
});

it('needs nothing', () => expect(true).toBe(true));
