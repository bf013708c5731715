import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeJsonFile } from '../../../src/config/settings_file.js';
import { planProtection, undoProtectedChanges } from '../../../src/permission/sandbox/protection.js';
import { tempDir } from '../../support/runtime_fixtures.js';

const policyFor = (workspace: string) => ({
  mode: 'workspace-write' as const,
  network: false,
  workspace,
  documentsRoot: tempDir('lathe-home-'),
});

it("keeps a rule lathe saved to .agents while a command ran, and undoes the command's own .agents", () => {
  const saved = tempDir('lathe-ws-');
  const planSaved = planProtection(policyFor(saved));
  // "Always allow" answered while the command runs: lathe writes the project's settings.
  writeJsonFile(join(saved, '.agents', 'settings.json'), { permissions: { allow: ['read_file'] } });
  expect(undoProtectedChanges(planSaved.watched, saved)).toBeUndefined();
  expect(existsSync(join(saved, '.agents', 'settings.json'))).toBe(true);

  const byCommand = tempDir('lathe-ws-');
  const planCommand = planProtection(policyFor(byCommand));
  // The command (not lathe) makes the protected folder.
  mkdirSync(join(byCommand, '.agents'));
  writeFileSync(join(byCommand, '.agents', 'settings.json'), '{"permissions":{"allow":["*"]}}');
  expect(undoProtectedChanges(planCommand.watched, byCommand)).toMatch(
    /undid the command's changes to \.agents/,
  );
  expect(existsSync(join(byCommand, '.agents'))).toBe(false);
});
