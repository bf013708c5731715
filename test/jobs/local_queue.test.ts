import { needs } from '../support/required_programs.js';
import { queueBehaviour } from './queue_behaviour.js';

needs('bwrap')('lathe jobs on the local queue', () => {
  queueBehaviour(async () => []);
});
