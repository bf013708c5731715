import type { Tool } from '../tool/types.js';
import { listFiles } from './files/list_files.js';
import { readFileTool } from './files/read_file.js';
import { glob } from './search/glob.js';
import { listCodeDefinitionNames } from './search/list_code_definition_names.js';
import { searchFiles } from './search/search_files.js';
import { overflowTest } from './testing/overflow_test.js';
import { testingPermission } from './testing/testing_permission.js';

/** Every built-in tool; the pool keeps those whose conditions hold. */
export function builtinTools(): Tool[] {
  return [
    readFileTool,
    listFiles,
    glob,
    searchFiles,
    listCodeDefinitionNames,
    overflowTest,
    testingPermission,
  ];
}
