import { LanguageServers } from '../lsp/language_servers.js';
import { filesWithWord } from '../tools/lsp/word_files.js';
import type { RuntimeConfiguration } from './configuration.js';

/**
 * The session's table of language servers, from the `lsp` settings and the PATH. Made before
 * the pool (and any request) exists, so the pool knows whether one can start; none starts here.
 */
export function languageServersFor(configuration: RuntimeConfiguration): LanguageServers {
  const { env, settings } = configuration;
  return new LanguageServers({
    settings: settings.lsp,
    path: env.PATH ?? process.env.PATH,
    wordSearch: filesWithWord,
  });
}
