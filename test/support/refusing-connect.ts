// A connect step for guard tests: it really dials only 127.0.0.1 and ::1. For any other host it opens a
// socket whose lookup is the guarded one, records what would have been dialed, and never hands the
// socket an address, so nothing beyond loopback is ever reached.
import { connect as netConnect } from "node:net"
import { type Connect, directConnect } from "../../adapters/outbound/outbound-client.ts"

export interface ConnectAttempt {
  readonly host: string
  readonly port: number
  /** What the socket would have dialed; empty when the guarded lookup refused. */
  readonly dialable: ReadonlyArray<string>
}

export const refusingConnect = () => {
  const attempts: Array<ConnectAttempt> = []
  const refusal = () =>
    Object.assign(new Error("connect ECONNREFUSED (the test connect dials loopback only)"), { code: "ECONNREFUSED" })
  const connect: Connect = (target) => {
    if (target.host === "127.0.0.1" || target.host === "::1") return directConnect(target)
    return netConnect({
      host: target.host,
      port: target.port,
      lookup: (hostname, options, callback) =>
        target.lookup(hostname, options, (error, address) => {
          const dialable =
            error !== null ? [] : Array.isArray(address) ? address.map((entry) => entry.address) : [address]
          attempts.push({ host: target.host, port: target.port, dialable })
          callback(error ?? refusal(), [])
        })
    })
  }
  return { connect, attempts }
}
