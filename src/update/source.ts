/**
 * Where release files come from: an http(s) base URL, a `file://` URL or a plain folder (for
 * air-gapped installs and mirrors). Bun's fetch honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY from
 * the process environment itself, so nothing here reads them.
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The default channel folder until the project has a release host: a reserved name that never resolves. */
export const DEFAULT_RELEASE_URL = "https://clew.invalid/releases/latest";

export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceError";
  }
}

function isRemote(base: string): boolean {
  return /^https?:\/\//i.test(base);
}

function localPath(base: string, name: string): string {
  const folder = base.startsWith("file:") ? fileURLToPath(base) : base;
  return join(folder, name);
}

function remoteUrl(base: string, name: string): string {
  return `${base.replace(/\/+$/, "")}/${name}`;
}

/** What a person reading the message can look at: the URL or the file. */
export function describeLocation(base: string, name: string): string {
  return isRemote(base) ? remoteUrl(base, name) : localPath(base, name);
}

/**
 * The release folder for a channel or a version: when the base ends in a channel name
 * (`…/latest`, `…/stable`) its last segment is swapped; any other base serves one release line.
 */
export function releaseFolder(base: string, target: { channel?: string; version?: string }): string {
  const trimmed = base.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  const last = trimmed.slice(slash + 1);
  const parent = slash >= 0 ? trimmed.slice(0, slash) : ".";
  if (target.version !== undefined) return `${last === "latest" || last === "stable" ? parent : trimmed}/${target.version}`;
  if (target.channel !== undefined && (last === "latest" || last === "stable")) return `${parent}/${target.channel}`;
  return trimmed;
}

function networkMessage(url: string, error: unknown): string {
  const host = new URL(url).host;
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  const text = error instanceof Error ? error.message : String(error);
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${code} ${text}`)) {
    return `TLS error talking to ${host} (${code || text}): the certificate was not accepted; a proxy that intercepts TLS needs its CA in NODE_EXTRA_CA_CERTS`;
  }
  return `could not reach ${host} for ${url}: ${code || text} (behind a proxy? set HTTPS_PROXY; NO_PROXY lists hosts reached directly)`;
}

async function fetchOk(url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow" });
  } catch (error) {
    throw new SourceError(networkMessage(url, error));
  }
  if (!response.ok) throw new SourceError(`${url} answered HTTP ${response.status} ${response.statusText}`.trim());
  return response;
}

/** A small file (manifest, signature) as bytes. */
export async function readReleaseFile(base: string, name: string): Promise<Uint8Array> {
  if (isRemote(base)) return new Uint8Array(await (await fetchOk(remoteUrl(base, name))).arrayBuffer());
  const path = localPath(base, name);
  const file = Bun.file(path);
  if (!(await file.exists())) throw new SourceError(`${path} does not exist`);
  return await file.bytes();
}

/**
 * Streams a release file into `destination`, stopping one byte past `expectedSize` so a server
 * that sends too much cannot fill the disk. Returns the number of bytes written.
 */
export async function downloadReleaseFile(base: string, name: string, destination: string, expectedSize: number, onProgress: (bytes: number) => void): Promise<number> {
  const stream: AsyncIterable<Uint8Array> = isRemote(base)
    ? ((await fetchOk(remoteUrl(base, name))).body ?? emptyStream())
    : openLocal(localPath(base, name));
  const sink = Bun.file(destination).writer();
  let written = 0;
  try {
    for await (const chunk of stream) {
      const room = expectedSize + 1 - written;
      const piece = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      sink.write(piece);
      written += piece.byteLength;
      onProgress(written);
      if (written > expectedSize) break;
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(`download of ${describeLocation(base, name)} broke off after ${written} bytes: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await sink.end();
  }
  return written;
}

async function* emptyStream(): AsyncIterable<Uint8Array> {}

async function* openLocal(path: string): AsyncIterable<Uint8Array> {
  if (!(await Bun.file(path).exists())) throw new SourceError(`${path} does not exist`);
  for await (const chunk of createReadStream(path)) yield chunk as Uint8Array;
}
