import { randomBytes } from "node:crypto"
import { lookup as dnsLookup } from "node:dns"
import { existsSync, readFileSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { WorkFailed } from "../../domain/errors.ts"
import { SourceFetcher } from "../../domain/ports/source-fetcher.ts"
import {
  directConnect,
  makeOutboundClient,
  OutboundClient,
  type OutboundSettings
} from "../../adapters/outbound/outbound-client.ts"
import { SourceFetcherLive } from "../../adapters/outbound/source-fetcher.ts"
import { fakeResolver } from "../support/fake-resolver.ts"
import { httpsReceiver } from "../support/https-receiver.ts"
import { refusingConnect } from "../support/refusing-connect.ts"

const media = randomBytes(300_000)
const limits = { maxBytes: 1_000_000, timeoutMs: 5_000 }

const streamed = (response: ServerResponse, body: Buffer, chunk = 16_384) => {
  response.writeHead(200, { "content-type": "video/mp4" }) // no Content-Length: chunked
  for (let at = 0; at < body.length; at += chunk) response.write(body.subarray(at, at + chunk))
  response.end()
}

/** A plain-http origin on 127.0.0.1 serving the cases below; it records the paths asked. */
const origin = Effect.acquireRelease(
  Effect.promise(async () => {
    const paths: Array<string> = []
    const server = createServer((request, response) => {
      const path = request.url ?? ""
      paths.push(path)
      switch (path) {
        case "/clip.mp4":
          return response.writeHead(200, { "content-type": "video/mp4" }).end(media)
        case "/streamed.mp4":
          return streamed(response, media)
        case "/declared-big.mp4":
          // Declares more than the cap, sends a little, then stalls: refused on the header alone.
          response.writeHead(200, { "content-type": "video/mp4", "content-length": "5000000" })
          return response.write(media.subarray(0, 1_000))
        case "/huge.mp4":
          response.writeHead(200, { "content-type": "video/mp4", "content-length": "600000000" })
          return response.write(media.subarray(0, 1_000))
        case "/stalls.mp4":
          response.writeHead(200, { "content-type": "video/mp4" })
          return response.write(media.subarray(0, 50_000))
        case "/page":
          return response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html>player</html>")
        case "/missing.mp4":
          return response.writeHead(404).end("not here")
        case "/redirect":
          return response.writeHead(302, { location: "/hop" }).end()
        case "/hop":
          return response.writeHead(307, { location: "/clip.mp4" }).end()
        case "/loop":
          return response.writeHead(302, { location: "/loop" }).end()
        case "/to-internal":
          return response.writeHead(302, { location: "http://internal.example/clip.mp4" }).end()
        case "/to-metadata":
          return response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end()
        case "/to-ftp":
          return response.writeHead(302, { location: "ftp://127.0.0.1/clip.mp4" }).end()
        default:
          return response.writeHead(404).end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return { server, paths, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  }),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
    )
)

const destination = Effect.promise(() => mkdtemp(join(tmpdir(), "source-fetcher-"))).pipe(
  Effect.map((dir) => join(dir, "source.bin"))
)

const download = (
  url: string,
  to: string,
  limitsUsed: { readonly maxBytes: number; readonly timeoutMs: number } = limits,
  settings: Partial<OutboundSettings> = {}
) =>
  SourceFetcher.pipe(
    Effect.flatMap((fetcher) => fetcher.download(url, to, limitsUsed)),
    Effect.provide(
      SourceFetcherLive.pipe(
        Layer.provide(
          Layer.succeed(
            OutboundClient,
            makeOutboundClient({ allowLoopback: true, resolve: dnsLookup, connect: directConnect, ...settings })
          )
        )
      )
    )
  )

const failure = (effect: Effect.Effect<unknown, WorkFailed>) => Effect.map(Effect.flip(effect), (error) => error.message)

describe("SourceFetcher", () => {
  it.scopedLive("streams the file to the destination, with or without Content-Length", () =>
    Effect.gen(function* () {
      const server = yield* origin
      for (const path of ["/clip.mp4", "/streamed.mp4"]) {
        const to = yield* destination
        const result = yield* download(`${server.url}${path}`, to)
        expect(result).toEqual({ bytes: media.length, contentType: "video/mp4" })
        expect(readFileSync(to).equals(media)).toBe(true)
      }
    })
  )

  it.scopedLive("downloads over https with the test CA", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 200, headers: { "content-type": "video/webm" }, body: media })
      const to = yield* destination
      expect(yield* download(`${receiver.url}/clip.webm`, to)).toEqual({ bytes: media.length, contentType: "video/webm" })
      expect(readFileSync(to).equals(media)).toBe(true)
    })
  )

  it.scopedLive("stops at maxBytes: on the declared length, or while streaming, and removes the partial file", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const small = { maxBytes: 100_000, timeoutMs: 5_000 }
      for (const path of ["/declared-big.mp4", "/streamed.mp4"]) {
        const to = yield* destination
        expect(yield* failure(download(`${server.url}${path}`, to, small))).toBe(
          `The file at ${server.url}${path} is over 100000 bytes, the limit.`
        )
        expect(existsSync(to)).toBe(false)
      }
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/huge.mp4`, to, { maxBytes: 500_000_000, timeoutMs: 5_000 }))).toBe(
        `The file at ${server.url}/huge.mp4 is over 500 MB, the limit.`
      )
      expect(existsSync(to)).toBe(false)
    })
  )

  it.scopedLive("refuses a web page: the url must point at the media file", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/page`, to))).toBe(
        `${server.url}/page is a web page (text/html): the url must point at the media file itself, not a page.`
      )
      expect(existsSync(to)).toBe(false)
    })
  )

  it.scopedLive("names the status of a non-2xx answer", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/missing.mp4`, to))).toBe(
        `Could not download ${server.url}/missing.mp4: the server answered HTTP 404.`
      )
      expect(existsSync(to)).toBe(false)
    })
  )

  it.scopedLive("follows redirects, but at most 5", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const to = yield* destination
      expect(yield* download(`${server.url}/redirect`, to)).toEqual({ bytes: media.length, contentType: "video/mp4" })
      expect(server.paths).toEqual(["/redirect", "/hop", "/clip.mp4"])
      const looped = yield* destination
      expect(yield* failure(download(`${server.url}/loop`, looped))).toBe(`${server.url}/loop redirects more than 5 times.`)
      expect(server.paths.filter((path) => path === "/loop")).toHaveLength(6)
      expect(existsSync(looped)).toBe(false)
    })
  )

  it.scopedLive("re-checks every redirect target and refuses disallowed ones without dialing them", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const { asked, resolve } = fakeResolver({ "internal.example": ["10.0.0.5"] })
      const { attempts, connect } = refusingConnect()
      const guarded = { resolve, connect }
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/to-internal`, to, limits, guarded))).toBe(
        `${server.url}/to-internal leads to an address the service may not fetch (internal.example resolves to 10.0.0.5, which is not a public address); use a public URL.`
      )
      expect(asked.map((entry) => entry.hostname)).toEqual(["internal.example"])
      expect(yield* failure(download(`${server.url}/to-metadata`, to, limits, guarded))).toBe(
        `${server.url}/to-metadata leads to an address the service may not fetch (169.254.169.254 is not a public address); use a public URL.`
      )
      expect(attempts.flatMap((attempt) => attempt.dialable)).toEqual([])
      expect(yield* failure(download(`${server.url}/to-ftp`, to, limits, guarded))).toBe(
        `Could not download ${server.url}/to-ftp: only http and https are supported, not ftp:.`
      )
      expect(existsSync(to)).toBe(false)
    })
  )

  it.scopedLive("fails when the download outlasts its time limit, and removes the partial file", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/stalls.mp4`, to, { maxBytes: 1_000_000, timeoutMs: 300 }))).toBe(
        `Downloading ${server.url}/stalls.mp4 took longer than 0.3 seconds; use a faster host or a smaller file.`
      )
      expect(existsSync(to)).toBe(false)
    })
  )

  it.scopedLive("without the loopback switch, 127.0.0.1 is refused and never asked", () =>
    Effect.gen(function* () {
      const server = yield* origin
      const to = yield* destination
      expect(yield* failure(download(`${server.url}/clip.mp4`, to, limits, { allowLoopback: false }))).toBe(
        `${server.url}/clip.mp4 leads to an address the service may not fetch (127.0.0.1 is not a public address); use a public URL.`
      )
      expect(server.paths).toEqual([])
    })
  )
})
