import { posixPart } from './posix.js';
import type { CompletedCommand } from './spec.js';

/**
 * \`lathe completion zsh\`: saved as \`_lathe\` in a folder of $fpath, or sourced after compinit
 * (\`source <(lathe completion zsh)\`).
 */
export function zshScript(spec: CompletedCommand[]): string {
  return `#compdef lathe
# lathe completion for zsh: source <(lathe completion zsh), or save as _lathe in $fpath
${posixPart(spec)}
_lathe() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" candidates
  __lathe_path "\${(@)words[2,CURRENT-1]}"
  if candidates="$(__lathe_candidates "$__lathe_cmd" "$prev" "$cur")"; then
    compadd -- \${=candidates}
  else
    _files
  fi
}

if [ "$funcstack[1]" = "_lathe" ]; then
  _lathe "$@"
else
  compdef _lathe lathe
fi
`;
}
