import { describe } from 'vitest';
import { queueBehaviour } from './queue_behaviour.js';

describe('lathe jobs on the local queue', () => {
  queueBehaviour(async () => []);
});
