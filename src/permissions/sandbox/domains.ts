/**
 * Which hosts the sandbox's proxy lets a command reach (spec §7.4): `example.com` that host,
 * `*.example.com` its subdomains, `*` every host; an entry may carry a port (`127.0.0.1:8080`,
 * clew) to allow only that port. A denied match beats an allowed one; no match is refused.
 */
import type { NetworkPolicy } from "./types.ts";

export type HostDecision = { allowed: true; entry: string } | { allowed: false; entry?: string; why: string };

function splitEntry(entry: string): { host: string; port?: string } {
  const text = entry.trim().toLowerCase();
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracket) return { host: bracket[1] ?? "", ...(bracket[2] ? { port: bracket[2] } : {}) };
  const colon = text.lastIndexOf(":");
  if (colon > 0 && text.indexOf(":") === colon && /^\d+$/.test(text.slice(colon + 1))) return { host: text.slice(0, colon), port: text.slice(colon + 1) };
  return { host: text };
}

function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

export function hostMatches(entry: string, host: string, port: number): boolean {
  const { host: pattern, port: wanted } = splitEntry(entry);
  if (wanted !== undefined && Number(wanted) !== port) return false;
  const target = normaliseHost(host);
  if (pattern === "*") return true;
  if (pattern.startsWith("*.")) return target.endsWith(pattern.slice(1)) && target.length > pattern.length - 1;
  return normaliseHost(pattern) === target;
}

export function decideHost(policy: NetworkPolicy, host: string, port: number): HostDecision {
  const denied = policy.deniedDomains.find((entry) => hostMatches(entry, host, port));
  if (denied !== undefined) return { allowed: false, entry: denied, why: `it matches "${denied}" in sandbox.network.deniedDomains` };
  const allowed = policy.allowedDomains.find((entry) => hostMatches(entry, host, port));
  if (allowed !== undefined) return { allowed: true, entry: allowed };
  return { allowed: false, why: "it is not in sandbox.network.allowedDomains" };
}
