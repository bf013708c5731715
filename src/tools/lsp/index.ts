import { findReferences } from './find_references.js';
import { lsp } from './lsp.js';
import { rename } from './rename.js';

/** The code-intelligence tools: they ask the language servers of the files' languages. */
export const lspTools = [findReferences, rename, lsp];
