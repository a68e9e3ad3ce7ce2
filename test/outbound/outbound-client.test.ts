import { lookup as dnsLookup } from "node:dns"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Writable } from "node:stream"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import {
  directConnect,
  makeOutboundClient,
  OutboundClient,
  OutboundClientLive,
  type OutboundSettings,
  USER_AGENT
} from "../../adapters/outbound/outbound-client.ts"
import { fakeResolver } from "../support/fake-resolver.ts"
import { httpsReceiver } from "../support/https-receiver.ts"
import { refusingConnect } from "../support/refusing-connect.ts"

const loopbackClient = (overrides: Partial<OutboundSettings> = {}) =>
  makeOutboundClient({ allowLoopback: true, resolve: dnsLookup, connect: directConnect, ...overrides })

const collector = () => {
  const chunks: Array<Buffer> = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk)
      done()
    }
  })
  return { sink, text: () => Buffer.concat(chunks).toString("utf8") }
}

describe("outbound client", () => {
  it.scopedLive("GETs over verified TLS and streams the body into the sink", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 200, headers: { "content-type": "video/mp4" }, body: "media bytes" })
      const body = collector()
      const response = yield* loopbackClient().request(`${receiver.url}/clip.mp4?sig=abc`, {
        method: "GET",
        timeoutMs: 5_000,
        maxBytes: 1_000,
        onBody: () => body.sink
      })
      expect(response.status).toBe(200)
      expect(response.headers["content-type"]).toBe("video/mp4")
      expect(response.bytes).toBe(11)
      expect(body.text()).toBe("media bytes")
      expect(receiver.requests).toHaveLength(1)
      expect(receiver.requests[0]).toMatchObject({ method: "GET", path: "/clip.mp4?sig=abc" })
      expect(receiver.requests[0]?.headers["user-agent"]).toBe(USER_AGENT)
    })
  )

  it.scopedLive("POSTs the body and headers; without onBody the answer's body is left unread", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 201, body: "x".repeat(100_000) })
      const response = yield* loopbackClient().request(`${receiver.url}/hook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-extra": "1" },
        body: `{"ok":true}`,
        timeoutMs: 5_000,
        maxBytes: 0
      })
      expect(response).toMatchObject({ status: 201, bytes: 0 })
      expect(receiver.requests[0]).toMatchObject({ method: "POST", body: `{"ok":true}` })
      expect(receiver.requests[0]?.headers).toMatchObject({ "content-type": "application/json", "x-extra": "1" })
    })
  )

  it.scopedLive("returns a redirect to the caller instead of following it", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 302, headers: { location: "/elsewhere" } })
      const response = yield* loopbackClient().request(`${receiver.url}/start`, {
        method: "GET",
        timeoutMs: 5_000,
        maxBytes: 1_000
      })
      expect(response.status).toBe(302)
      expect(response.headers.location).toBe("/elsewhere")
      expect(receiver.requests.map((request) => request.path)).toEqual(["/start"])
    })
  )

  it.scopedLive("refuses a certificate no trusted CA signed", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver({ trusted: false })
      const failure = yield* Effect.flip(
        loopbackClient().request(`${receiver.url}/x`, { method: "GET", timeoutMs: 5_000, maxBytes: 0 })
      )
      expect(failure.reason).toBe("Unreachable")
      expect(failure.message).toMatch(/^TLS with 127\.0\.0\.1:\d+ failed: self-signed certificate/)
      expect(receiver.requests).toHaveLength(0)
    })
  )

  it.scopedLive("refuses a body whose Content-Length is over the cap, without reading it", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 200, body: "y".repeat(2_000) })
      const body = collector()
      const failure = yield* Effect.flip(
        loopbackClient().request(`${receiver.url}/big`, {
          method: "GET",
          timeoutMs: 5_000,
          maxBytes: 1_000,
          onBody: () => body.sink
        })
      )
      expect(failure.reason).toBe("TooLarge")
      expect(body.text()).toBe("")
    })
  )

  it.scopedLive("gives up when the whole exchange outlasts the time limit", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ hang: true })
      const failure = yield* Effect.flip(
        loopbackClient().request(`${receiver.url}/slow`, { method: "GET", timeoutMs: 300, maxBytes: 0 })
      )
      expect(failure.reason).toBe("Timeout")
      expect(failure.message).toMatch(/^127\.0\.0\.1:\d+ did not answer completely within 300 ms$/)
    })
  )

  it.effect("accepts only http and https URLs", () =>
    Effect.gen(function* () {
      const { attempts, connect } = refusingConnect()
      const client = loopbackClient({ connect })
      for (const url of ["ftp://127.0.0.1/file", "file:///etc/passwd", "not a url"]) {
        const failure = yield* Effect.flip(client.request(url, { method: "GET", timeoutMs: 1_000, maxBytes: 0 }))
        expect(failure.reason).toBe("InvalidUrl")
      }
      expect(attempts).toHaveLength(0)
    })
  )

  it.effect("refuses disallowed IP literals before any socket exists", () =>
    Effect.gen(function* () {
      let connects = 0
      const client = loopbackClient({
        allowLoopback: false,
        connect: (target) => {
          connects++
          return refusingConnect().connect(target)
        }
      })
      for (const url of [
        "http://127.0.0.1:9/",
        "http://10.0.0.5/",
        "http://169.254.169.254/latest/meta-data/",
        "https://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[fd00::1]/",
        "http://[64:ff9b::a9fe:a9fe]/",
        "http://0x7f.1/",
        "http://2130706433/"
      ]) {
        const failure = yield* Effect.flip(client.request(url, { method: "GET", timeoutMs: 1_000, maxBytes: 0 }))
        expect(failure.reason, url).toBe("Disallowed")
        expect(failure.message).toMatch(/is not a public address$/)
      }
      expect(connects).toBe(0)
    })
  )

  it.live("refuses names whose addresses are not all public, inside the socket's lookup, without dialing", () =>
    Effect.gen(function* () {
      const { asked, resolve } = fakeResolver({
        "internal.example": ["10.0.0.5"],
        "mixed.example": ["127.0.0.1", "10.1.2.3"],
        "metadata.example": ["169.254.169.254"],
        "nat64.example": ["64:ff9b::a00:5"],
        "public.example": ["93.184.216.34"]
      })
      const { attempts, connect } = refusingConnect()
      const client = loopbackClient({ resolve, connect })
      for (const host of ["internal.example", "mixed.example", "metadata.example", "nat64.example"]) {
        const failure = yield* Effect.flip(
          client.request(`https://${host}/x`, { method: "GET", timeoutMs: 5_000, maxBytes: 0 })
        )
        expect(failure.reason, `${host}: ${failure.message}`).toBe("Disallowed")
        expect(failure.message).toMatch(new RegExp(`^${host.replace(".", "\\.")} resolves to .+, which is not a public address$`))
      }
      expect(asked.map((entry) => entry.hostname)).toEqual([
        "internal.example",
        "mixed.example",
        "metadata.example",
        "nat64.example"
      ])
      expect(attempts.flatMap((attempt) => attempt.dialable)).toEqual([])
      // Control: a public answer passes the guard, and the test connect records it instead of dialing.
      const refused = yield* Effect.flip(
        client.request("https://public.example/x", { method: "GET", timeoutMs: 5_000, maxBytes: 0 })
      )
      expect(refused.message).toContain("ECONNREFUSED")
      expect(attempts.flatMap((attempt) => attempt.dialable)).toEqual(["93.184.216.34"])
    })
  )

  it.scopedLive("dials names through the injected resolver (localhost is checked like any name)", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      const port = new URL(receiver.url).port
      const { asked, resolve } = fakeResolver({ localhost: ["127.0.0.1"] })
      const allowed = yield* loopbackClient({ resolve }).request(`https://localhost:${port}/named`, {
        method: "GET",
        timeoutMs: 5_000,
        maxBytes: 0
      })
      expect(allowed.status).toBe(200)
      const refused = yield* Effect.flip(
        loopbackClient({ resolve, allowLoopback: false }).request(`https://localhost:${port}/named`, {
          method: "GET",
          timeoutMs: 5_000,
          maxBytes: 0
        })
      )
      expect(refused.message).toBe("localhost resolves to 127.0.0.1, which is not a public address")
      expect(asked.map((entry) => entry.hostname)).toEqual(["localhost", "localhost"])
      expect(receiver.requests.map((request) => request.path)).toEqual(["/named"])
    })
  )

  it.scopedLive("ignores proxy settings from the environment", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      const proxied: Array<string> = []
      const proxy = createServer((request, response) => {
        proxied.push(request.url ?? "")
        response.end()
      }).on("connect", (request: { url?: string }, socket: { destroy: () => void }) => {
        proxied.push(`CONNECT ${request.url}`)
        socket.destroy()
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))),
        () => Effect.promise(() => new Promise<void>((resolve) => proxy.close(() => resolve())))
      )
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
      const names = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          const saved = names.map((name) => [name, process.env[name]] as const)
          for (const name of names) process.env[name] = proxyUrl
          return saved
        }),
        (saved) =>
          Effect.sync(() => {
            for (const [name, value] of saved) {
              if (value === undefined) delete process.env[name]
              else process.env[name] = value
            }
          })
      )
      const response = yield* loopbackClient().request(`${receiver.url}/direct`, {
        method: "GET",
        timeoutMs: 5_000,
        maxBytes: 0
      })
      expect(response.status).toBe(200)
      expect(receiver.requests).toHaveLength(1)
      expect(proxied).toEqual([])
    })
  )

  it.scopedLive("the Layer reads OUTBOUND_ALLOW_LOOPBACK through Config", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      const get = OutboundClient.pipe(
        Effect.flatMap((client) => client.request(`${receiver.url}/`, { method: "GET", timeoutMs: 5_000, maxBytes: 0 })),
        Effect.provide(OutboundClientLive)
      )
      const withEnv = (entries: ReadonlyArray<readonly [string, string]>) =>
        get.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries))), Effect.either)
      const on = yield* withEnv([["OUTBOUND_ALLOW_LOOPBACK", "1"]])
      const off = yield* withEnv([])
      expect(on._tag === "Right" && on.right.status).toBe(200)
      expect(off._tag === "Left" && off.left._tag === "OutboundFailure" && off.left.reason).toBe("Disallowed")
      expect(receiver.requests).toHaveLength(1)
    })
  )
})
