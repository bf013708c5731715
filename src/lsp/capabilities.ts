import type { ClientCapabilities } from 'vscode-languageserver-protocol';

/** What lathe tells servers it can do: plain locations, full-text sync, versioned diagnostics. */
export const clientCapabilities: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    workspaceFolders: true,
    configuration: true,
    symbol: {},
    workspaceEdit: { documentChanges: true },
  },
  textDocument: {
    synchronization: { didSave: false, willSave: false, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    hover: { contentFormat: ['plaintext', 'markdown'] },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    callHierarchy: {},
  },
  window: { workDoneProgress: false },
};
