/**
 * Tests that prove behaviour at scale (a 600 MB log, hundreds of racing writes, writers of 50 MB
 * files killed mid-write, property tests at 10,000 runs, processes racing on one mailbox):
 * `npm run test:slow` runs them, and CI runs both suites. `npm test` leaves them out to stay
 * within a few minutes on a two-core machine.
 */
export const SLOW_TESTS = [
  'test/session/large_log.test.ts',
  'test/edit/write_races.test.ts',
  'test/edit/atomic_write_kill.test.ts',
  'test/edit/apply_patch.property.test.ts',
  'test/edit/search_replace.property.test.ts',
  'test/messaging/teams_race.test.ts',
];
