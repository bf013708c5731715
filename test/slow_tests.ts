/**
 * Tests that prove behaviour at scale (a 600 MB log, hundreds of racing writes, writers of 50 MB
 * files killed mid-write, property tests at 10,000 runs, processes racing on one mailbox, the
 * 44-cell hook matrix) or that drive heavyweight real programs (Chromium, tsserver, pyright, the
 * `lathe mcp` commands against server-everything, the scripted language servers) and the
 * built command's end-to-end runs of hooks, custom commands and skills, the SDK's examples
 * (each compiled, and run as a program of its own), 100 MB of checkpoints, and the job queues
 * (each job a clone, a worktree and a run of the built command): `npm run test:slow` runs
 * them, and CI runs both suites. `npm test` leaves them out to stay within five minutes on a
 * two-core machine.
 */
export const SLOW_TESTS = [
  'test/session/large_log.test.ts',
  'test/edit/write_races.test.ts',
  'test/edit/atomic_write_kill.test.ts',
  'test/edit/apply_patch.property.test.ts',
  'test/edit/search_replace.property.test.ts',
  'test/messaging/teams_race.test.ts',
  'test/extensions/hooks/matrix.test.ts',
  'test/browser/browser_action.test.ts',
  'test/browser/sandbox_user.test.ts',
  'test/lsp/typescript_server.test.ts',
  'test/lsp/python_server.test.ts',
  'test/lsp/cli_lsp.test.ts',
  'test/mcp/cli.test.ts',
  'test/lsp/fake_server.test.ts',
  'test/lsp/workspace_coverage.test.ts',
  'test/lsp/pending_diagnostics.test.ts',
  'test/lsp/more_servers.test.ts',
  'test/lsp/call_progress.test.ts',
  'test/tui/call_progress.test.ts',
  'test/tui/call_progress.e2e.test.ts',
  'test/extensions/hooks/headless.e2e.test.ts',
  'test/extensions/commands/headless.e2e.test.ts',
  'test/extensions/skills/cli.test.ts',
  'test/sdk/examples.test.ts',
  'test/acp/stdio_sessions.test.ts',
  'test/checkpoints/scale.test.ts',
  'test/jobs/bullmq_queue.test.ts',
  'test/jobs/two_workers.test.ts',
  'test/jobs/bullmq_retries.test.ts',
  // Each job clones, makes a worktree and runs the built command: a minute or more per file.
  'test/jobs/local_queue.test.ts',
  'test/jobs/local_runs.test.ts',
  'test/jobs/job_git_drivers.test.ts',
  'test/jobs/job_rerun.test.ts',
  'test/jobs/redis_outage.test.ts',
  // End-to-end runs of the built command (lathe -p, lathe tool, the interactive UI) for the
  // checkpoint, context, REPL, assistant, GitHub and plan tools; their parts are tested in
  // process in the main suite.
  'test/checkpoints/cli.test.ts',
  'test/checkpoints/undo_rewind.test.ts',
  'test/agent/context.e2e.test.ts',
  'test/tools/assistant_tools.test.ts',
  'test/tools/repl.test.ts',
  'test/tools/github/suggest_background_pr.test.ts',
  'test/github/subscribe_pr.e2e.test.ts',
  'test/tools/plan/verify_plan_execution.e2e.test.ts',
  // The heaviest end-to-end runs of the built command by file (each test starts lathe several
  // times, half a second of CPU each): command-line flags, sessions, providers, proxies, MCP
  // start-up, doctor and the terminal. What they drive is also tested in process in the main suite.
  'test/cli/run_flags.test.ts',
  'test/session/resume.test.ts',
  'test/cli/cli.test.ts',
  'test/agent/headless.test.ts',
  'test/agent/headless_output.test.ts',
  'test/mcp/runtime.test.ts',
  'test/agent/providers_and_sessions.test.ts',
  'test/tui/terminal.e2e.test.ts',
  'test/tui/graphemes_planes.test.ts',
  'test/mcp/startup.test.ts',
  'test/cli/doctor.test.ts',
  'test/cli/proxy.test.ts',
  'test/cli/arguments.test.ts',
  'test/agent/conversation.test.ts',
  'test/agent/cost_and_caching.test.ts',
  // Packs lathe, installs the tarball from the registry into a fresh prefix and runs it.
  'test/install/packed_tarball.test.ts',
  // node-ignore's 75 cases, each through three tools and checked against git itself.
  'test/tools/gitignore_oracle.test.ts',
  // Checkpoints of whole trees, each through the snapshot thread and the shadow repository.
  'test/checkpoints/snapshot.test.ts',
  'test/checkpoints/store.test.ts',
  // Eighteen runs of the built command against an untrusted folder's MCP servers and settings.
  'test/cli/trust.test.ts',
  // lathe mcp serve driven by the MCP Inspector, a program of its own per call.
  'test/mcp/server.test.ts',
  // Commands that misbehave (floods, hangs, orphans) and replace_text over whole trees.
  'test/tools/exec_faults.test.ts',
  'test/tools/replace_text.test.ts',
  // A reply far taller than the screen, streamed through the real UI.
  'test/tui/calm.test.ts',
];
