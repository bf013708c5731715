#!/usr/bin/env node
// A scripted language server (stdio) for the client's protocol tests; what it does is written in
// the documents it is given:
//   a line `class NAME` / `  method NAME` / `function NAME` declares a symbol (documentSymbol);
//   definition answers the position it was asked about (so address forms can be compared);
//   a line holding ERROR is an error diagnostic; LATE delays the publish by 4 s; NOISE also
//   publishes 10,000 errors in 1,000 other files; hover on a document holding CRASH exits mid-request.
// Flags: --exit-at-start (a broken install), --garbage (writes non-LSP bytes), --silent (never answers);
// --start-after FILE answers initialize once FILE exists, and --publish-after FILE publishes a
// document holding HOLD once FILE exists (a test makes the wait as long as it needs, no timers).
import { existsSync } from 'node:fs';
import { createConnection, ProposedFeatures, TextDocumentSyncKind } from 'vscode-languageserver/node';

/** The value of a `--flag VALUE` argument. */
const flagValue = (flag) => {
  const at = process.argv.indexOf(flag);
  return at === -1 ? undefined : process.argv[at + 1];
};

/** Resolves once `file` exists (at once without one). */
function untilExists(file) {
  return new Promise((resolve) => {
    if (!file || existsSync(file)) return resolve();
    const poll = setInterval(() => {
      if (!existsSync(file)) return;
      clearInterval(poll);
      resolve();
    }, 20);
  });
}

if (process.argv.includes('--exit-at-start')) {
  process.stderr.write('fake server: cannot start\n');
  process.exit(1);
}
if (process.argv.includes('--garbage')) {
  process.stdout.write('this is not a language server\r\n\r\n{{{');
  setInterval(() => {}, 1000);
} else if (process.argv.includes('--silent')) {
  process.stdin.resume();
  setInterval(() => {}, 1000);
} else {
  serve();
}

function serve() {
  const connection = createConnection(ProposedFeatures.all);
  const texts = new Map();

  connection.onInitialize(async () => {
    await untilExists(flagValue('--start-after'));
    return initializeResult;
  });
  const initializeResult = {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Full,
      definitionProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      referencesProvider: true,
    },
    serverInfo: { name: 'fake', version: '1.0.0' },
  };

  const range = (line, from, to) => ({ start: { line, character: from }, end: { line, character: to } });

  function publish(uri, version, text) {
    const diagnostics = [];
    text.split('\n').forEach((line, i) => {
      const at = line.indexOf('ERROR');
      if (at !== -1)
        diagnostics.push({ range: range(i, at, at + 5), message: 'an error here', severity: 1, code: 'E1' });
    });
    const send = () => {
      if (text.includes('NOISE')) {
        for (let f = 0; f < 1000; f++) {
          const noise = Array.from({ length: 10 }, (_, k) => ({
            range: range(k, 0, 1),
            message: 'noise',
            severity: 1,
          }));
          connection.sendDiagnostics({ uri: `file:///elsewhere/file${f}.fk`, diagnostics: noise });
        }
      }
      connection.sendDiagnostics({ uri, version, diagnostics });
    };
    if (text.includes('LATE')) setTimeout(send, 4000);
    else if (text.includes('HOLD')) untilExists(flagValue('--publish-after')).then(send);
    else send();
  }

  connection.onDidOpenTextDocument(({ textDocument }) => {
    texts.set(textDocument.uri, textDocument.text);
    publish(textDocument.uri, textDocument.version, textDocument.text);
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    const text = contentChanges[contentChanges.length - 1].text;
    texts.set(textDocument.uri, text);
    publish(textDocument.uri, textDocument.version, text);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => texts.delete(textDocument.uri));

  connection.onDefinition(({ textDocument, position }) => ({
    uri: textDocument.uri,
    range: { start: position, end: position },
  }));
  connection.onReferences(({ textDocument, position }) => [
    { uri: textDocument.uri, range: { start: position, end: position } },
  ]);
  connection.onHover(({ textDocument, position }) => {
    if ((texts.get(textDocument.uri) ?? '').includes('CRASH')) process.exit(3);
    return {
      contents: { kind: 'plaintext', value: `hover at ${position.line + 1}:${position.character + 1}` },
    };
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const symbols = [];
    (texts.get(textDocument.uri) ?? '').split('\n').forEach((line, i) => {
      const match = /^(\s*)(class|method|function) (\w+)/.exec(line);
      if (!match) return;
      const start = line.indexOf(match[3]);
      const symbol = {
        name: match[3],
        kind: match[2] === 'class' ? 5 : match[2] === 'method' ? 6 : 12,
        range: range(i, 0, line.length),
        selectionRange: range(i, start, start + match[3].length),
        children: [],
      };
      if (match[1].length > 0 && symbols.length > 0) symbols[symbols.length - 1].children.push(symbol);
      else symbols.push(symbol);
    });
    return symbols;
  });
  connection.listen();
}
