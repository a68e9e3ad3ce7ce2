import type { LookupAddress } from "node:dns"
import { describe, expect, it } from "@effect/vitest"
import {
  DisallowedAddress,
  guardedLookup,
  ipLiteral,
  isAllowedAddress,
  type Resolve
} from "../../adapters/outbound/address-policy.ts"
import { fakeResolver } from "../support/fake-resolver.ts"

const strict = { allowLoopback: false }
const loopbackAllowed = { allowLoopback: true }

const publicAddresses = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8"]

const deniedAddresses = [
  ["10.0.0.1", "private 10/8"],
  ["10.255.255.255", "private 10/8"],
  ["172.16.0.1", "private 172.16/12"],
  ["172.31.255.254", "private 172.16/12"],
  ["192.168.1.1", "private 192.168/16"],
  ["127.0.0.1", "loopback"],
  ["127.5.6.7", "loopback"],
  ["::1", "IPv6 loopback"],
  ["169.254.169.254", "cloud metadata (link-local)"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.254", "carrier-grade NAT"],
  ["fc00::1", "unique local"],
  ["fd12:3456::1", "unique local"],
  ["fe80::1", "IPv6 link-local"],
  ["fe80::1%eth0", "IPv6 link-local with zone"],
  ["::", "IPv6 unspecified"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "this network"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
  ["::7f00:1", "IPv4-compatible (deprecated)"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "IPv6 multicast"],
  ["255.255.255.255", "broadcast"],
  ["64:ff9b::a00:1", "NAT64 of 10.0.0.1"],
  ["64:ff9b::808:808", "NAT64 of a public address"],
  ["2002:a00:1::1", "6to4"],
  ["2001::1", "Teredo"],
  ["2001:db8::1", "documentation"],
  ["192.0.2.1", "documentation"],
  ["198.18.0.1", "benchmarking"],
  ["240.0.0.1", "reserved"],
  ["localhost", "not an address"],
  ["127.1", "shorthand is not an address"],
  ["", "empty"]
] as const

describe("isAllowedAddress", () => {
  it.each(publicAddresses)("allows public %s", (ip) => {
    expect(isAllowedAddress(ip, strict)).toBe(true)
    expect(isAllowedAddress(ip, loopbackAllowed)).toBe(true)
  })

  it.each(deniedAddresses)("denies %s (%s)", (ip) => {
    expect(isAllowedAddress(ip, strict)).toBe(false)
  })

  it("the loopback switch allows 127.0.0.0/8 and ::1 and nothing else", () => {
    for (const ip of ["127.0.0.1", "127.5.6.7", "::1", "::ffff:127.0.0.1"]) {
      expect(isAllowedAddress(ip, loopbackAllowed)).toBe(true)
    }
    const stillDenied = deniedAddresses
      .map(([ip]) => ip)
      .filter((ip) => !["127.0.0.1", "127.5.6.7", "::1", "::ffff:127.0.0.1"].includes(ip))
    for (const ip of stillDenied) expect(isAllowedAddress(ip, loopbackAllowed), ip).toBe(false)
  })
})

describe("ipLiteral", () => {
  it("recognises IP literals as URL hostnames spell them", () => {
    expect(ipLiteral("127.0.0.1")).toBe("127.0.0.1")
    expect(ipLiteral("[::1]")).toBe("::1")
    expect(ipLiteral(new URL("http://[::ffff:127.0.0.1]/").hostname)).toBe("::ffff:7f00:1")
    expect(ipLiteral(new URL("http://0x7f.1/").hostname)).toBe("127.0.0.1")
    expect(ipLiteral("example.com")).toBeNull()
    expect(ipLiteral("localhost")).toBeNull()
  })
})

interface LookupResult {
  readonly error: NodeJS.ErrnoException | null
  readonly address: string | ReadonlyArray<LookupAddress>
  readonly family: number | undefined
}

const lookup = (resolve: Resolve, hostname: string, all: boolean, allowLoopback = false) =>
  new Promise<LookupResult>((done) =>
    guardedLookup(resolve, { allowLoopback })(hostname, { all }, (error, address, family) =>
      done({ error, address, family })
    )
  )

describe("guardedLookup", () => {
  const table = {
    "media.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "mixed.example": ["93.184.216.34", "10.0.0.7"],
    "metadata.example": ["169.254.169.254"],
    "mapped.example": ["::ffff:192.168.0.1"],
    localhost: ["127.0.0.1", "::1"]
  }

  it("passes every address of a public name, in the shape the caller asked for", async () => {
    const { resolve, asked } = fakeResolver(table)
    const all = await lookup(resolve, "media.example", true)
    expect(all.error).toBeNull()
    expect(all.address).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 }
    ])
    const one = await lookup(resolve, "media.example", false)
    expect(one).toEqual({ error: null, address: "93.184.216.34", family: 4 })
    // Every address is fetched, even when the caller wants one, so none escapes the check.
    expect(asked.every((entry) => entry.all)).toBe(true)
  })

  it("denies a name when any one of its addresses is not public", async () => {
    const { resolve } = fakeResolver(table)
    for (const all of [true, false]) {
      const result = await lookup(resolve, "mixed.example", all)
      expect(result.error).toBeInstanceOf(DisallowedAddress)
      expect(result.error?.message).toBe("mixed.example resolves to 10.0.0.7, which is not a public address")
    }
  })

  it("denies metadata and IPv4-mapped private answers", async () => {
    const { resolve } = fakeResolver(table)
    expect((await lookup(resolve, "metadata.example", true)).error?.message).toContain("169.254.169.254")
    expect((await lookup(resolve, "mapped.example", true)).error).toBeInstanceOf(DisallowedAddress)
  })

  it("checks localhost like any name: denied, unless the loopback switch is on", async () => {
    const { resolve, asked } = fakeResolver(table)
    expect((await lookup(resolve, "localhost", true)).error?.message).toBe(
      "localhost resolves to 127.0.0.1, which is not a public address"
    )
    expect((await lookup(resolve, "localhost", true, true)).error).toBeNull()
    expect(asked.map((entry) => entry.hostname)).toEqual(["localhost", "localhost"])
  })

  it("passes resolver errors through", async () => {
    const { resolve } = fakeResolver(table)
    expect((await lookup(resolve, "nowhere.example", true)).error?.code).toBe("ENOTFOUND")
  })
})
