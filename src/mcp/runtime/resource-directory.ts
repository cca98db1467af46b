/** What the resource tools need of the manager: the resources of connected servers, and a read. */
export interface ListedResource {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

export interface ResourceDirectory {
  /** Names of connected servers that offer resources. */
  resourceServers(): string[];
  listResources(server?: string): ListedResource[];
  readResource(server: string, uri: string, signal: AbortSignal): Promise<{ ok: true; text: string } | { ok: false; message: string }>;
}
