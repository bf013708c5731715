import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverAgentTypes } from '../../../src/config/agent_types/index.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

function discoverIn(file: string, text: string) {
  const workspace = writeTree({ [file]: text });
  const { types, warnings } = discoverAgentTypes({
    workspace,
    documentsRoot: tempDir(),
    includeWorkspace: true,
  });
  const path = join(workspace, file);
  return { type: types[3], types, path, warnings: warnings.map((w) => w.replace(`${path}: `, '')) };
}

describe('Claude Code agent files (.claude/agents)', () => {
  it('normalise a comma-separated tool list, the model alias and Plan mode', () => {
    const { type, path, warnings } = discoverIn(
      '.claude/agents/reviewer.md',
      `---
name: code-reviewer
description: Reviews code
tools: Read, Grep, Glob, Bash, Edit, WebFetch, mcp__github__create_issue
model: haiku
permissionMode: plan
maxTurns: 5
color: blue
---
You are a careful reviewer.`,
    );
    expect(type).toEqual({
      name: 'code-reviewer',
      description: 'Reviews code',
      prompt: 'You are a careful reviewer.',
      tools: [
        'read_file',
        'search_files',
        'glob',
        'execute_command',
        'edit_file',
        'replace_in_file',
        'web_fetch',
        'github__create_issue',
      ],
      model: 'small',
      mode: 'plan',
      maxTurns: 5,
      source: path,
      origin: 'claude',
    });
    expect(warnings).toEqual([]);
  });

  it('never widen a list: a tool with arguments is left out of tools and denies the whole tool', () => {
    const { type, warnings } = discoverIn(
      '.claude/agents/git.md',
      `---
name: git
description: Git helper
tools: ["Read", "Bash(git diff:*)", "SlashCommand"]
disallowedTools: Bash(rm:*)
---
`,
    );
    expect(type.tools).toEqual(['read_file']);
    expect(type.disallowedTools).toEqual(['execute_command']);
    expect(warnings).toEqual([
      'tools: "Bash(git diff:*)" limits a tool\'s arguments, which a type cannot: left out (use permission rules)',
      'tools: "SlashCommand" maps to no lathe tool: left out',
      'disallowedTools: "Bash(rm:*)" denies all of execute_command',
    ]);
  });

  it('say when a permission mode or a model alias is not applied', () => {
    const { type, warnings } = discoverIn(
      '.claude/agents/bold.md',
      '---\nname: bold\ndescription: Bold\nmodel: opus\npermissionMode: bypassPermissions\nskills: [x]\n---\n',
    );
    expect(type.model).toBeUndefined();
    expect(type.mode).toBeUndefined();
    expect(warnings).toEqual([
      'model: "opus" names no model outside Anthropic\'s aliases: the parent\'s model runs it',
      'permissionMode: "bypassPermissions" is not applied: a child\'s approvals follow lathe\'s rules',
      'ignored skills (lathe does not apply them to a type)',
    ]);
  });

  it('read a description holding ": " as plain lines, with a warning', () => {
    const { type, warnings } = discoverIn(
      '.claude/agents/helper.md',
      '---\nname: helper\ndescription: Use this agent when: the tests fail. Example: run it\ntools:\n  - Read\n---\nHelp.',
    );
    expect(type).toMatchObject({
      description: 'Use this agent when: the tests fail. Example: run it',
      tools: ['read_file'],
    });
    expect(warnings[0]).toMatch(
      /^the frontmatter is not valid YAML \(.+\); it was read as plain "key: value" lines/,
    );
  });

  it('skip a disabled agent, saying so', () => {
    const { types, warnings } = discoverIn(
      '.claude/agents/off.md',
      '---\nname: off\ndescription: x\ndisabled: true\n---\n',
    );
    expect(types).toHaveLength(3);
    expect(warnings).toEqual(['disabled in its file (disabled: true): not loaded']);
  });
});

describe('Gemini CLI agent files (.gemini/agents)', () => {
  it('map the tool names, max_turns and the model, and name the fields not applied', () => {
    const { type, warnings } = discoverIn(
      '.gemini/agents/auditor.md',
      `---
name: security-auditor
description: Finds vulnerabilities
kind: local
tools:
  - read_file
  - grep_search
  - run_shell_command
  - mcp_*
model: gemini-3-flash-preview
temperature: 0.2
max_turns: 10
timeout_mins: 5
---
You are a security auditor.`,
    );
    expect(type).toMatchObject({
      name: 'security-auditor',
      tools: ['read_file', 'search_files', 'execute_command'],
      model: 'google/gemini-3-flash-preview',
      maxTurns: 10,
      prompt: 'You are a security auditor.',
      origin: 'gemini',
    });
    expect(warnings).toEqual([
      'tools: "mcp_*" is a wildcard lathe does not expand: left out',
      'ignored temperature, timeout_mins (lathe does not apply them to a type)',
    ]);
  });

  it('read "*" as every tool, and pass over a remote agent', () => {
    expect(
      discoverIn('.gemini/agents/all.md', '---\nname: all\ndescription: x\ntools: ["*"]\n---\n').type.tools,
    ).toBe(undefined);
    const remote = discoverIn('.gemini/agents/far.md', '---\nname: far\ndescription: x\nkind: remote\n---\n');
    expect(remote.types).toHaveLength(3);
    expect(remote.warnings).toEqual([
      'a remote (Agent-to-Agent) agent: lathe runs local agents only: not loaded',
    ]);
  });
});

describe('OpenCode agent files (.opencode/agent)', () => {
  it('take the name from the file, deny the tools set to false or denied, and read steps as turns', () => {
    const { type, warnings } = discoverIn(
      '.opencode/agent/review.md',
      `---
description: Reviews code for quality
mode: subagent
model: anthropic/claude-sonnet-4-5#high
temperature: 0.1
steps: 8
tools:
  write: false
  bash: false
  read: true
permission:
  edit: deny
  webfetch: ask
---
You are in code review mode.`,
    );
    expect(type).toMatchObject({
      name: 'review',
      description: 'Reviews code for quality',
      model: 'anthropic/claude-sonnet-4-5',
      maxTurns: 8,
      prompt: 'You are in code review mode.',
      origin: 'opencode',
    });
    expect(type.disallowedTools).toEqual([
      'write_to_file',
      'execute_command',
      'replace_in_file',
      'edit_file',
      'apply_patch',
      'replace_text',
      'notebook_edit',
    ]);
    expect(type.tools).toBeUndefined();
    expect(warnings).toEqual(['ignored temperature (lathe does not apply them to a type)']);
  });

  it('pass over a primary agent, which is no subagent', () => {
    const { types, warnings } = discoverIn(
      '.opencode/agent/build.md',
      '---\ndescription: x\nmode: primary\n---\n',
    );
    expect(types).toHaveLength(3);
    expect(warnings).toEqual(['a primary agent (mode: primary), not a subagent: not loaded']);
  });

  it('say which field is wrong when tools is not a map', () => {
    const { warnings } = discoverIn('.opencode/agents/x.md', '---\ndescription: x\ntools: [read]\n---\n');
    expect(warnings).toEqual(['"tools" must be a map of tool names to true or false: not loaded']);
  });
});

describe('Codex agent files (.codex/agents/*.toml)', () => {
  it('read the instructions, the model and a read-only sandbox', () => {
    const { type, warnings } = discoverIn(
      '.codex/agents/explorer.toml',
      `name = "code_explorer"
description = "Traces code paths read-only"
model = "gpt-5-mini"
model_reasoning_effort = "low"
sandbox_mode = "read-only"
nickname_candidates = ["Atlas"]
developer_instructions = """
Trace the real call path.
Do not change files.
"""
`,
    );
    expect(type).toMatchObject({
      name: 'code_explorer',
      description: 'Traces code paths read-only',
      model: 'openai/gpt-5-mini',
      readOnly: true,
      prompt: 'Trace the real call path.\nDo not change files.',
      origin: 'codex',
    });
    expect(warnings).toEqual(['ignored model_reasoning_effort (lathe does not apply them to a type)']);
  });

  it('name the file when its TOML does not parse', () => {
    const { types, warnings } = discoverIn('.codex/agents/bad.toml', 'name = "unclosed\n');
    expect(types).toHaveLength(3);
    expect(warnings[0]).toMatch(/^the TOML is not valid \(.+\): not loaded$/);
  });
});
