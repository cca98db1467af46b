/**
 * Reading a release folder the way install.sh and src/update/source.ts do: an http(s) URL, a
 * `file://` URL or a plain folder. `download-url` may also name the manifest itself.
 */
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export class ReleaseFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReleaseFileError";
  }
}

const isRemote = (base: string): boolean => /^https?:\/\//i.test(base);

/** The release folder for a download-url: a trailing `/manifest.json` and slashes are dropped. */
export function releaseFolder(downloadUrl: string): string {
  return downloadUrl.replace(/\/+$/, "").replace(/\/manifest\.json$/, "");
}

/** Where a file of the release is, as a reader of the log would look for it. */
export function locationOf(base: string, name: string): string {
  if (isRemote(base)) return `${base}/${name}`;
  return join(base.startsWith("file:") ? fileURLToPath(base) : base, name);
}

async function fetchOk(url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow" });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    throw new ReleaseFileError(`could not download ${url} (${error instanceof Error ? error.message : String(error)}${cause}); check download-url, or the runner's proxy (HTTPS_PROXY)`);
  }
  if (!response.ok) throw new ReleaseFileError(`${url} answered HTTP ${response.status} ${response.statusText}`.trim());
  return response;
}

/** A small file of the release (manifest, signature). */
export async function readReleaseFile(base: string, name: string): Promise<Buffer> {
  const where = locationOf(base, name);
  if (isRemote(base)) return Buffer.from(await (await fetchOk(where)).arrayBuffer());
  if (!existsSync(where)) throw new ReleaseFileError(`${where} does not exist; check download-url`);
  return await readFile(where);
}

/**
 * Streams a release file into `destination`, stopping one byte past `expectedSize` so a server
 * that sends too much cannot fill the runner's disk. Returns the number of bytes written.
 */
export async function downloadReleaseFile(base: string, name: string, destination: string, expectedSize: number): Promise<number> {
  const where = locationOf(base, name);
  let source: AsyncIterable<Uint8Array>;
  if (isRemote(base)) {
    const body = (await fetchOk(where)).body;
    source = body ?? (async function* () {})();
  } else {
    if (!existsSync(where)) throw new ReleaseFileError(`${where} does not exist; check download-url`);
    source = createReadStream(where);
  }
  const sink = createWriteStream(destination, { mode: 0o600 });
  // Listening from the start: a disk error mid-download rejects this instead of crashing node.
  const closed = finished(sink);
  closed.catch(() => {});
  let written = 0;
  try {
    for await (const chunk of source) {
      const room = expectedSize + 1 - written;
      const piece = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      if (!sink.write(piece)) await Promise.race([once(sink, "drain"), closed]);
      written += piece.byteLength;
      if (written > expectedSize) break;
    }
  } catch (error) {
    sink.destroy();
    throw new ReleaseFileError(`download of ${where} broke off after ${written} bytes: ${error instanceof Error ? error.message : String(error)}`);
  }
  sink.end();
  try {
    await closed;
  } catch (error) {
    throw new ReleaseFileError(`could not write ${destination}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return written;
}
