// Which addresses a user-supplied URL may reach: public unicast only (loopback too, behind a test switch).
import type { LookupAddress, LookupAllOptions, LookupOptions } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import ipaddr from "ipaddr.js"

export interface AddressPolicy {
  /** Test-only switch (OUTBOUND_ALLOW_LOOPBACK=1): also allow 127.0.0.0/8 and ::1. */
  readonly allowLoopback: boolean
}

/** A `dns.lookup`-compatible resolver asked for every address of a name. */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: Array<LookupAddress>) => void
) => void

/** The connection was refused before dialing because `host` points at a non-public address. */
export class DisallowedAddress extends Error {
  constructor(
    readonly host: string,
    readonly address: string
  ) {
    super(
      host === address
        ? `${address} is not a public address`
        : `${host} resolves to ${address}, which is not a public address`
    )
    this.name = "DisallowedAddress"
  }
}

// IANA's global unicast block. ipaddr.js calls some of ::/8 (IPv4-compatible ::a.b.c.d) "unicast",
// but nothing public lives outside 2000::/3.
const globalUnicastV6 = ipaddr.parseCIDR("2000::/3")

export const isAllowedAddress = (ip: string, policy: AddressPolicy): boolean => {
  // Strict syntax first: ipaddr.js also accepts shorthand such as "127.1".
  if (isIP(ip) === 0) return false
  const address = ipaddr.process(ip) // unwraps ::ffff:a.b.c.d to the IPv4 address it names
  const range = address.range()
  if (policy.allowLoopback && range === "loopback") return true
  if (range !== "unicast") return false
  if (address.kind() === "ipv4") return true
  return address.match(globalUnicastV6)
}

/** The IP address a URL hostname spells (brackets of IPv6 literals removed), or null for a name. */
export const ipLiteral = (hostname: string): string | null => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? null : bare
}

/**
 * Wraps a resolver into the socket's `lookup`, so the addresses checked are the ones dialed (no DNS
 * rebinding window). Every address must pass: one private answer among public ones fails the connection.
 */
export const guardedLookup =
  (resolve: Resolve, policy: AddressPolicy): LookupFunction =>
  (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      const denied = addresses.find((entry) => !isAllowedAddress(entry.address, policy))
      if (denied !== undefined) return callback(new DisallowedAddress(hostname, denied.address), [])
      const first = addresses[0]
      if (first === undefined) {
        return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: "ENOTFOUND" }), [])
      }
      return options.all === true ? callback(null, addresses) : callback(null, first.address, first.family)
    })
  }
