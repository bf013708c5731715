import { fileURLToPath } from 'node:url';

/** The scripted language server's program (see its header for what it does). */
export const SCRIPTED_SERVER = fileURLToPath(new URL('./fake_language_server.mjs', import.meta.url));

/** Settings `lsp` whose only server of `.fk` files is the scripted one, run with `flags`. */
export const scriptedServerSettings = (...flags: string[]) => ({
  servers: {
    fake: {
      command: process.execPath,
      args: [SCRIPTED_SERVER, '--stdio', ...flags],
      languages: ['fakelang'],
      extensions: ['.fk'],
    },
  },
});
