import { describe, expect, it } from 'vitest';
import { type ElicitedField, withDefaults } from '../../src/mcp/elicitation.js';

const fields: ElicitedField[] = [
  { name: 'name', type: 'string', required: false, default: 'John Doe' },
  { name: 'age', type: 'integer', required: false, default: 30 },
  { name: 'active', type: 'boolean', required: false, default: false },
  { name: 'note', type: 'string', required: false },
];

describe('an accepted form with the schema’s defaults', () => {
  it('fills in the defaults of the fields an accept with no content leaves out (as `yes` answers)', () => {
    expect(withDefaults({ action: 'accept' }, fields)).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, active: false },
    });
  });

  it('keeps what the answer gave, in its order, and adds only what is missing', () => {
    const answer = withDefaults({ action: 'accept', content: { age: 41, name: 'Ada' } }, fields);
    expect(answer).toEqual({ action: 'accept', content: { age: 41, name: 'Ada', active: false } });
    expect(Object.keys(answer.action === 'accept' ? (answer.content ?? {}) : {})).toEqual([
      'age',
      'name',
      'active',
    ]);
  });

  it('leaves a decline and a cancel as they are', () => {
    expect(withDefaults({ action: 'decline' }, fields)).toEqual({ action: 'decline' });
    expect(withDefaults({ action: 'cancel' }, fields)).toEqual({ action: 'cancel' });
  });
});
