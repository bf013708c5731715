export { formatOutline } from './format.js';
export { type GrammarName, type LanguageSpec, languageForFile, supportedExtensions } from './languages.js';
export { type Definition, MAX_TEXT_LENGTH, type OutlineResult, outlineSource } from './outline.js';
