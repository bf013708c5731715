import { callLabel } from '../../tool/call_label.js';
import { builtinTool, builtinTools } from '../../tools/index.js';
import { installToolCatalogue } from '../render/tool_facts.js';

// Loaded with the session, after the first frame: from here on the UI shows calls by their tools' declarations.
installToolCatalogue({ find: builtinTool, all: builtinTools, label: callLabel });
