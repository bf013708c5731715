export interface ResourceListing {
  server: string;
  error?: string;
  resources: Array<{ uri: string; name: string; mimeType?: string; description?: string }>;
  templates: Array<{ uriTemplate: string; name: string; description?: string }>;
}

/** Resources shown per server; more are counted, not listed. */
const MAX_LISTED = 200;

function oneLine(text: string | undefined): string {
  if (!text) return '';
  const line = text.replace(/\s+/g, ' ').trim();
  return ` — ${line.length > 160 ? `${line.slice(0, 160)}…` : line}`;
}

/** Resources and templates by server, in a form the model can pick a URI from. */
export function formatResourceListing(listings: readonly ResourceListing[]): string {
  if (listings.length === 0) return 'No MCP server is configured.';
  const sections = listings.map((l) => {
    if (l.error) return `## ${l.server}\n(unavailable: ${l.error})`;
    if (l.resources.length === 0 && l.templates.length === 0) return `## ${l.server}\n(no resources)`;
    const lines = [`## ${l.server}`];
    for (const r of l.resources.slice(0, MAX_LISTED)) {
      lines.push(`- ${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${oneLine(r.description)}`);
    }
    if (l.resources.length > MAX_LISTED) lines.push(`… and ${l.resources.length - MAX_LISTED} more`);
    if (l.templates.length > 0) {
      lines.push('Templates (fill in the {placeholders} to make a URI):');
      for (const t of l.templates) lines.push(`- ${t.uriTemplate}  ${t.name}${oneLine(t.description)}`);
    }
    return lines.join('\n');
  });
  return `${sections.join('\n\n')}\n\nRead one with access_mcp_resource {server_name, uri}.`;
}
