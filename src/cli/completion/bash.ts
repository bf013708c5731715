import { posixPart } from './posix.js';
import type { CompletedCommand } from './spec.js';

/** `lathe completion bash`: source it from ~/.bashrc (`source <(lathe completion bash)`). */
export function bashScript(spec: CompletedCommand[]): string {
  return `# lathe completion for bash: source <(lathe completion bash)
${posixPart(spec)}
_lathe() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" words
  __lathe_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if words="$(__lathe_candidates "$__lathe_cmd" "$prev" "$cur")"; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _lathe lathe
`;
}
