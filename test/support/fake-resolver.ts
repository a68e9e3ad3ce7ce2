// A dns.lookup stand-in that answers from a table and records the names asked, so tests can point
// names at any address without touching the network.
import type { LookupAddress } from "node:dns"
import type { Resolve } from "../../adapters/outbound/address-policy.ts"

export const fakeResolver = (table: Readonly<Record<string, ReadonlyArray<string>>>) => {
  const asked: Array<{ readonly hostname: string; readonly all: boolean }> = []
  const resolve: Resolve = (hostname, options, callback) => {
    asked.push({ hostname, all: options.all })
    // Asynchronous like dns.lookup: sockets attach their error listeners on a later tick.
    setImmediate(() => {
      const addresses = table[hostname]
      if (addresses === undefined) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), [])
      }
      callback(null, addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })))
    })
  }
  return { resolve, asked }
}
