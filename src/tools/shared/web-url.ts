/**
 * URLs as WebFetch takes them: checked, http upgraded to https (loopback stays http), which
 * redirects may be followed without asking again, and secrets kept out of everything the tool
 * shows or records.
 */
import { ToolError } from "../../util/errors.ts";

export const MAX_URL_LENGTH = 2000;

/** localhost, *.localhost, 127.0.0.0/8 and ::1: served by this machine, where https is rarely set up. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** The URL to fetch, or a ToolError saying what is wrong with the one given. */
export function fetchableUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw new ToolError(`The URL is ${raw.length} characters long; WebFetch takes at most ${MAX_URL_LENGTH}.`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ToolError(`"${redactUrl(raw)}" is not a valid URL. Give a full URL such as https://example.com/page.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(`WebFetch fetches http and https URLs only, not ${url.protocol} (${redactUrl(url)}).`);
  }
  if (url.hostname === "") throw new ToolError(`${redactUrl(url)} names no host.`);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) url.protocol = "https:";
  return url;
}

/**
 * A redirect WebFetch follows by itself: same scheme, port and host (a `www.` prefix added or
 * dropped aside) and no credentials. Anything else goes back to the model, so the permission
 * gate sees the new host before it is contacted.
 */
export function isPermittedRedirect(from: URL, to: URL): boolean {
  if (to.protocol !== from.protocol || to.port !== from.port) return false;
  if (to.username !== "" || to.password !== "") return false;
  const bare = (host: string) => host.toLowerCase().replace(/^www\./, "");
  return bare(to.hostname) === bare(from.hostname);
}

/** Query parameters whose values are credentials (tokens, keys, signatures, passwords). */
const SECRET_PARAM = /(?:^|[_.-])(?:token|key|apikey|secret|password|passwd|pwd|auth|authorization|sig|signature|credential|session|sessionid|jwt)s?$|^(?:access|refresh|id|client)_?(?:token|secret)$|^x-amz-(?:signature|credential|security-token)$/i;

export const REDACTED = "REDACTED";

/** The URL with userinfo and credential-like query values replaced, for output and records. */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = typeof input === "string" ? new URL(input) : new URL(input.href);
  } catch {
    // Not parseable: hide anything between a scheme and an @.
    return String(input).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, `$1${REDACTED}@`);
  }
  const hadUserinfo = url.username !== "" || url.password !== "";
  url.username = "";
  url.password = "";
  let query = url.search;
  if (query.length > 1) {
    query = `?${query
      .slice(1)
      .split("&")
      .map((pair) => {
        const equals = pair.indexOf("=");
        if (equals < 0) return pair;
        const name = safeDecode(pair.slice(0, equals));
        return SECRET_PARAM.test(name) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
      })
      .join("&")}`;
  }
  const origin = hadUserinfo ? `${url.protocol}//${REDACTED}@${url.host}` : `${url.protocol}//${url.host}`;
  return `${origin}${url.pathname}${query}${url.hash}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
