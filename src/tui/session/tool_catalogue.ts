import { callLabel } from '../../tool/call_label.js';
import { NO_FACTS } from '../../tool/facts.js';
import { builtinTool, builtinTools } from '../../tools/index.js';
import { installToolCatalogue } from '../render/tool_facts.js';

// Loaded with the session, after the first frame: from here on the UI shows calls by their tools' declarations.
installToolCatalogue({
  find: builtinTool,
  all: builtinTools,
  label: callLabel,
  readsOnly: (tool, input) => tool.isReadOnly(input as never, NO_FACTS),
});
