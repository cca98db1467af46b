/**
 * Which proxy a fetch goes through, read the way curl reads the environment: HTTPS_PROXY for
 * https, HTTP_PROXY for http, ALL_PROXY for either, lower case first; NO_PROXY lists hosts
 * (a domain covers its subdomains, `host:port` one port, `*` every host) reached directly.
 * The session's environment is used, so settings `env` can set them too.
 */
type Env = Readonly<Record<string, string | undefined>>;

function pick(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name.toLowerCase()] ?? env[name];
    if (value !== undefined && value.trim() !== "") return value.trim();
  }
  return undefined;
}

function bypassed(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const portMatch = bracketed ? null : /^(.*?):(\d+)$/.exec(entry);
    const name = (bracketed?.[1] ?? portMatch?.[1] ?? entry).replace(/^\*?\./, "").replace(/\.$/, "");
    const entryPort = bracketed?.[2] ?? portMatch?.[2];
    if (entryPort !== undefined && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy URL for `url`, or undefined to connect directly. */
export function proxyFor(url: URL, env: Env): string | undefined {
  if (bypassed(url, pick(env, "NO_PROXY"))) return undefined;
  const proxy = url.protocol === "https:" ? pick(env, "HTTPS_PROXY", "ALL_PROXY") : pick(env, "HTTP_PROXY", "ALL_PROXY");
  if (!proxy) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}
