// DNS rebinding protection for /mcp: a page on a foreign site whose name resolves to this server
// must not reach it through the visitor's browser. The browser sends that site's name as Host and
// its origin as Origin, so both must be this server's own. A server on a loopback address answers
// to any loopback name and port (a local proxy or client may use either); clients that are not
// browsers send no Origin, which is fine.

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"])

/** A Host header is a name or an IP literal, with an optional port: nothing else may pass to the URL parser. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

const parseUrl = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** Why the request is refused, or null when its Host and Origin are this server's. */
export const rebindingProblem = (
  headers: { readonly host?: string | undefined; readonly origin?: string | undefined },
  baseUrl: string
): string | null => {
  const base = new URL(baseUrl)
  const loopback = LOOPBACK_HOSTNAMES.has(base.hostname)
  const host = headers.host === undefined || !HOST_HEADER.test(headers.host) ? null : parseUrl(`${base.protocol}//${headers.host}`)
  const hostAllowed = host !== null && (loopback ? LOOPBACK_HOSTNAMES.has(host.hostname) : host.host === base.host)
  if (!hostAllowed) return `Forbidden: the Host header must name this server (${base.host}).`
  if (headers.origin === undefined) return null
  const origin = parseUrl(headers.origin)
  const originAllowed = origin !== null &&
    (loopback ? LOOPBACK_HOSTNAMES.has(origin.hostname) : origin.origin === base.origin)
  return originAllowed ? null : `Forbidden: requests from the origin ${JSON.stringify(headers.origin.slice(0, 200))} are refused.`
}
