// The BlobStore contract on an S3-compatible server (s3rver on loopback), plus what only S3 brings:
// multipart uploads, key prefixes, presigned links that expire, the media route's redirect, and the
// settings read from the environment.
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { subscribe, unsubscribe } from "node:diagnostics_channel"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import type { ClientRequest } from "node:http"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Chunk, ConfigProvider, Context, Effect, Exit, Layer, Option, Redacted, Stream } from "effect"
import { MediaRoute } from "../../adapters/http/media-route.ts"
import { MemoryDatabaseLive } from "../../adapters/memory/memory-database.ts"
import { MemoryFileStoreLive } from "../../adapters/memory/memory-file-store.ts"
import { S3BlobStoreLive } from "../../adapters/storage/s3-blob-store.ts"
import { type S3Config, S3ConfigFromEnv } from "../../adapters/storage/s3-config.ts"
import { BlobStore, type BlobStoreShape } from "../../domain/ports/blob-store.ts"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"
import { S3BlobStoreTest, s3Server, testS3Config } from "../support/s3-server.ts"
import { blobStoreContract } from "./blob-store.contract.ts"

const MIB = 1024 * 1024
const dir = mkdtempSync(join(tmpdir(), "reelwright-s3-blobs-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

blobStoreContract("S3 on s3rver", S3BlobStoreTest())
blobStoreContract("S3 on s3rver, under a key prefix", S3BlobStoreTest({ prefix: "tenant-a/" }))

/** A fresh server and a store on it; both closed with the test's scope. */
const onServer = (overrides: Partial<S3Config> = {}) =>
  Effect.gen(function*() {
    const { endpoint } = yield* s3Server
    const store = Context.get(yield* Layer.build(S3BlobStoreLive(testS3Config(endpoint, overrides))), BlobStore)
    return { endpoint, store }
  })

const localFile = (bytes: number): { path: string; content: Buffer } => {
  const content = randomBytes(bytes)
  const path = join(dir, `${randomUUID()}.bin`)
  writeFileSync(path, content)
  return { path, content }
}

const readAll = (stream: Stream.Stream<Uint8Array>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(Chunk.toArray(chunks)))

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

/** Every bodied HTTP response must be read to the end, or s3rver's close waits for it. */
const get = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { response, body: Buffer.from(await response.arrayBuffer()) }
  })

/** The method and path of every HTTP request this process sends while `effect` runs. */
const recordingRequests = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const sent: Array<string> = []
  const onRequest = (message: unknown) => {
    const { request } = message as { request: ClientRequest }
    sent.push(`${request.method} ${request.path}`)
  }
  return Effect.acquireUseRelease(
    Effect.sync(() => subscribe("http.client.request.start", onRequest)),
    () => Effect.map(effect, (result) => ({ result, sent })),
    () => Effect.sync(() => unsubscribe("http.client.request.start", onRequest))
  )
}

describe("S3BlobStore", () => {
  it.scopedLive("uploads a file larger than the part size in parts, and gives it back byte for byte", () =>
    Effect.gen(function*() {
      const { store } = yield* onServer({ partSizeBytes: 5 * MIB })
      const { content, path } = localFile(20 * MIB + 123)
      const key = `videos/${randomUUID()}/render.mp4`

      const { result, sent } = yield* recordingRequests(store.putFile(key, path))
      expect(result).toEqual({ bytes: 20 * MIB + 123 })
      expect(sent.filter((request) => request.startsWith("PUT ") && request.includes("partNumber=")).length).toBe(5)
      expect(existsSync(path)).toBe(false)

      expect(yield* store.size(key)).toBe(20 * MIB + 123)
      const copy = join(dir, randomUUID(), "copy.mp4")
      yield* store.getFile(key, copy)
      expect(sha256(readFileSync(copy))).toBe(sha256(content))

      // A range across the boundary between the first two parts.
      const range = yield* readAll(store.read(key, { start: 5 * MIB - 10, end: 5 * MIB + 9 }))
      expect(range.equals(content.subarray(5 * MIB - 10, 5 * MIB + 10))).toBe(true)
      const tail = yield* readAll(store.read(key, { start: 20 * MIB, end: 20 * MIB + 122 }))
      expect(tail.equals(content.subarray(20 * MIB))).toBe(true)
    }), 60_000)

  it.scopedLive("uploads a file below the part size in one request", () =>
    Effect.gen(function*() {
      const { store } = yield* onServer({ partSizeBytes: 5 * MIB })
      const { path } = localFile(100_000)
      const { sent } = yield* recordingRequests(store.putFile(`small/${randomUUID()}`, path))
      expect(sent.filter((request) => request.startsWith("PUT ")).length).toBe(1)
    }))

  it.scopedLive("keeps keys under the prefix", () =>
    Effect.gen(function*() {
      const { endpoint } = yield* s3Server
      const build = (prefix: string) =>
        Effect.map(Layer.build(S3BlobStoreLive(testS3Config(endpoint, { prefix }))), Context.get(BlobStore))
      const tenant = yield* build("tenant-b/")
      const whole = yield* build("")
      const { content, path } = localFile(1_000)
      yield* tenant.putFile("a/b.bin", path)
      expect((yield* readAll(whole.read("tenant-b/a/b.bin"))).equals(content)).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(whole.size("a/b.bin")))).toBe(true)
    }))

  it.scopedLive("signs links that serve ranges, name the file, and expire", () =>
    Effect.gen(function*() {
      const { store } = yield* onServer()
      const { content, path } = localFile(10_000)
      const key = `links/${randomUUID()}`
      yield* store.putFile(key, path)
      const sign = (expiresInSeconds: number, fileName = "clip.mp4") =>
        Effect.map(store.signedUrl(key, { expiresInSeconds, fileName, contentType: "video/mp4" }), Option.getOrThrow)

      const url = yield* sign(3600)
      expect(new URL(url).origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("3600")
      const part = yield* get(url, { headers: { range: "bytes=100-199" } })
      expect(part.response.status).toBe(206)
      expect(part.response.headers.get("content-range")).toBe("bytes 100-199/10000")
      expect(part.body.equals(content.subarray(100, 200))).toBe(true)

      const named = yield* get(yield* sign(60, "Größe \"1\".mp4"))
      expect(named.response.headers.get("content-disposition")).toBe(
        `inline; filename="Gr__e _1_.mp4"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%221%22.mp4`
      )

      const shortLived = yield* sign(1)
      yield* Effect.sleep("2100 millis")
      const expired = yield* get(shortLived)
      expect(expired.response.status).toBe(403)
      expect(expired.body.toString()).toContain("Request has expired")
      expect((yield* get(yield* sign(60))).response.status).toBe(200)
    }))

  it.scopedLive("fails on a store error, keeping the local file", () =>
    Effect.gen(function*() {
      const { endpoint } = yield* s3Server
      const store = Context.get(
        yield* Layer.build(S3BlobStoreLive(testS3Config(endpoint, { bucket: "no-such-bucket" }))),
        BlobStore
      )
      const { path } = localFile(10)
      expect(Exit.isFailure(yield* Effect.exit(store.putFile("x", path)))).toBe(true)
      expect(existsSync(path)).toBe(true)
    }))
})

describe("GET /media with an S3 store", () => {
  /** The media route alone, with files in memory and blobs on a fresh s3rver. */
  const mediaServer = (store: BlobStoreShape) =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        HttpApiBuilder.Router.serve().pipe(
          Layer.provide(MediaRoute),
          Layer.provide(HttpApiBuilder.Router.Live),
          Layer.provideMerge(MemoryFileStoreLive.pipe(Layer.provide(MemoryDatabaseLive))),
          Layer.provideMerge(Layer.succeed(BlobStore, store)),
          Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
        )
      )
      const address = Context.get(context, HttpServer.HttpServer).address
      return {
        baseUrl: address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "",
        files: Context.get(context, FileStore)
      }
    })

  const storedFile = (store: BlobStoreShape, overrides: Partial<StoredFile> = {}) =>
    Effect.gen(function*() {
      const { content, path } = localFile(5_000)
      const id = randomUUID()
      const { bytes } = yield* store.putFile(`ws-1/${id}`, path)
      const file: StoredFile = {
        id,
        workspaceId: "ws-1",
        blobKey: `ws-1/${id}`,
        token: randomUUID().replaceAll("-", ""),
        name: "final.mp4",
        contentType: "video/mp4",
        bytes,
        createdAt: new Date(0).toISOString(),
        expiresAt: null,
        deletedAt: null,
        purgedAt: null,
        ...overrides
      }
      return { file, content }
    })

  it.scopedLive("redirects to a fresh signed URL after the usual checks", () =>
    Effect.gen(function*() {
      const { store } = yield* onServer()
      const { baseUrl, files } = yield* mediaServer(store)
      const { content, file } = yield* storedFile(store)
      yield* files.insert(file)
      const link = `${baseUrl}/media/${file.token}/${file.name}`

      const redirect = yield* get(link, { redirect: "manual" })
      expect(redirect.response.status).toBe(302)
      expect(redirect.response.headers.get("cache-control")).toBe("private, no-store")
      const location = redirect.response.headers.get("location") ?? ""
      expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("3600")
      const direct = yield* get(location)
      expect(direct.response.status).toBe(200)
      expect(direct.response.headers.get("content-type")).toBe("video/mp4")
      expect(direct.response.headers.get("content-disposition")).toBe(`inline; filename="final.mp4"`)
      expect(direct.body.equals(content)).toBe(true)

      // A browser follows the redirect with its Range header.
      const part = yield* get(link, { headers: { range: "bytes=4990-" } })
      expect(part.response.status).toBe(206)
      expect(part.response.headers.get("content-range")).toBe("bytes 4990-4999/5000")
      expect(part.body.equals(content.subarray(4_990))).toBe(true)

      // A presigned GET does not accept HEAD, so HEAD is answered here.
      const head = yield* get(link, { method: "HEAD", redirect: "manual" })
      expect(head.response.status).toBe(200)
      expect(head.response.headers.get("content-length")).toBe("5000")
      expect(head.response.headers.get("content-type")).toBe("video/mp4")

      expect((yield* get(`${baseUrl}/media/not-a-token/final.mp4`, { redirect: "manual" })).response.status).toBe(404)
      yield* files.markDeleted(file.id, new Date(0).toISOString())
      expect((yield* get(link, { redirect: "manual" })).response.status).toBe(404)
    }))

  it.scopedLive("never signs past the file's expiry, and refuses an expired file", () =>
    Effect.gen(function*() {
      const { store } = yield* onServer()
      const { baseUrl, files } = yield* mediaServer(store)
      const now = Date.now()
      const soon = yield* storedFile(store, { expiresAt: now + 60_000 })
      const gone = yield* storedFile(store, { expiresAt: now - 1 })
      yield* files.insert(soon.file)
      yield* files.insert(gone.file)

      const redirect = yield* get(`${baseUrl}/media/${soon.file.token}/final.mp4`, { redirect: "manual" })
      expect(redirect.response.status).toBe(302)
      const expires = Number(new URL(redirect.response.headers.get("location") ?? "").searchParams.get("X-Amz-Expires"))
      expect(expires).toBeGreaterThan(0)
      expect(expires).toBeLessThanOrEqual(60)
      expect((yield* get(`${baseUrl}/media/${gone.file.token}/final.mp4`, { redirect: "manual" })).response.status)
        .toBe(410)
    }))
})

describe("S3ConfigFromEnv", () => {
  const fromEnv = (env: Record<string, string>) =>
    Effect.exit(Effect.withConfigProvider(S3ConfigFromEnv, ConfigProvider.fromMap(new Map(Object.entries(env)))))

  it.effect("is off without S3_BUCKET", () =>
    Effect.gen(function*() {
      expect(yield* fromEnv({ AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" })).toEqual(
        Exit.succeed(Option.none())
      )
    }))

  it.effect("reads the S3_* settings, with defaults", () =>
    Effect.gen(function*() {
      const config = yield* Effect.flatten(fromEnv({
        S3_BUCKET: "media",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_ACCESS_KEY_ID: "minio",
        S3_SECRET_ACCESS_KEY: "minio-secret",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "/reelwright/"
      }))
      const value = Option.getOrThrow(config)
      expect(value).toMatchObject({
        bucket: "media",
        endpoint: Option.some("http://127.0.0.1:9000"),
        region: "us-east-1",
        forcePathStyle: true,
        prefix: "reelwright/",
        partSizeBytes: 16 * MIB
      })
      const credentials = Option.getOrThrow(value.credentials)
      expect(credentials.accessKeyId).toBe("minio")
      expect(Redacted.value(credentials.secretAccessKey)).toBe("minio-secret")
    }))

  it.effect("falls back to the AWS_* names that Fly's Tigris sets", () =>
    Effect.gen(function*() {
      const value = Option.getOrThrow(yield* Effect.flatten(fromEnv({
        S3_BUCKET: "media",
        AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev",
        AWS_REGION: "auto",
        AWS_ACCESS_KEY_ID: "tid",
        AWS_SECRET_ACCESS_KEY: "tsecret",
        S3_PART_SIZE_MIB: "8"
      })))
      expect(value).toMatchObject({
        endpoint: Option.some("https://fly.storage.tigris.dev"),
        region: "auto",
        forcePathStyle: false,
        prefix: "",
        partSizeBytes: 8 * MIB
      })
      expect(Option.getOrThrow(value.credentials).accessKeyId).toBe("tid")
    }))

  it.effect("leaves credentials to the SDK when none are set, and refuses half a pair or tiny parts", () =>
    Effect.gen(function*() {
      const bare = Option.getOrThrow(yield* Effect.flatten(fromEnv({ S3_BUCKET: "media" })))
      expect(Option.isNone(bare.credentials)).toBe(true)
      expect(Option.isNone(bare.endpoint)).toBe(true)
      expect(Exit.isFailure(yield* fromEnv({ S3_BUCKET: "media", S3_ACCESS_KEY_ID: "id" }))).toBe(true)
      expect(Exit.isFailure(yield* fromEnv({ S3_BUCKET: "media", S3_PART_SIZE_MIB: "1" }))).toBe(true)
    }))
})
