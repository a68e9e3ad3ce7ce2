// What every BlobStore adapter must do. Local files live in a temporary directory per test.
import { randomBytes, randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Exit, type Layer, Option, Stream, TestServices } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"

const localDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "reelwright-blob-contract-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const readAll = (stream: Stream.Stream<Uint8Array>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(Chunk.toArray(chunks)))

export const blobStoreContract = (name: string, blobs: Layer.Layer<BlobStore, unknown>): void =>
  layer(blobs)(`BlobStore (${name})`, (it) => {
    /** A blob of `bytes` random bytes under a fresh key. */
    const stored = (dir: string, bytes: number) =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const content = randomBytes(bytes)
        const local = join(dir, `${randomUUID()}.bin`)
        writeFileSync(local, content)
        const key = `videos/${randomUUID()}/source.mp4`
        expect(yield* store.putFile(key, local)).toEqual({ bytes })
        return { key, content }
      })

    it.scoped("stores a file and gives it back whole", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const dir = yield* localDir
        const { content, key } = yield* stored(dir, 200_000)
        expect(yield* store.size(key)).toBe(200_000)
        expect((yield* readAll(store.read(key))).equals(content)).toBe(true)

        const copy = join(dir, "out", "copy.mp4")
        yield* store.getFile(key, copy)
        expect(readFileSync(copy).equals(content)).toBe(true)
        expect(yield* store.size(key)).toBe(200_000)
      }))

    it.scoped("reads inclusive byte ranges", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const { content, key } = yield* stored(yield* localDir, 150_000)
        const range = (start: number, end: number) => readAll(store.read(key, { start, end }))
        expect((yield* range(0, 0)).equals(content.subarray(0, 1))).toBe(true)
        expect((yield* range(10, 19)).equals(content.subarray(10, 20))).toBe(true)
        expect((yield* range(70_000, 149_999)).equals(content.subarray(70_000))).toBe(true)
        expect((yield* range(149_999, 149_999)).equals(content.subarray(149_999))).toBe(true)
      }))

    it.scoped("replaces a blob stored again under the same key", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const dir = yield* localDir
        const { key } = yield* stored(dir, 1_000)
        const local = join(dir, "second.bin")
        const replacement = randomBytes(10)
        writeFileSync(local, replacement)
        expect(yield* store.putFile(key, local)).toEqual({ bytes: 10 })
        expect((yield* readAll(store.read(key))).equals(replacement)).toBe(true)
      }))

    it.scoped("removes a blob, and removing a missing one is fine", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const { key } = yield* stored(yield* localDir, 1_000)
        yield* store.remove(key)
        expect(Exit.isFailure(yield* Effect.exit(store.size(key)))).toBe(true)
        yield* store.remove(key)
      }))

    // A store either cannot sign, or signs a URL that any HTTP client can GET with the file's headers.
    // Signing dates come from the Clock, and the server checks them against real time.
    it.scoped("signs a URL that serves the blob, or says it cannot", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const { content, key } = yield* stored(yield* localDir, 50_000)
        const url = yield* TestServices.provideLive(
          store.signedUrl(key, { expiresInSeconds: 60, fileName: "clip 1.mp4", contentType: "video/mp4" })
        )
        if (Option.isNone(url)) return
        const response = yield* Effect.promise(() => fetch(url.value))
        const body = Buffer.from(yield* Effect.promise(() => response.arrayBuffer()))
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toBe("video/mp4")
        expect(response.headers.get("content-disposition")).toBe(`inline; filename="clip 1.mp4"`)
        expect(body.equals(content)).toBe(true)
      }))

    it.scoped("fails on reads of a missing key", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const dir = yield* localDir
        const key = `missing/${randomUUID()}.mp4`
        expect(Exit.isFailure(yield* Effect.exit(store.size(key)))).toBe(true)
        expect(Exit.isFailure(yield* Effect.exit(readAll(store.read(key))))).toBe(true)
        expect(Exit.isFailure(yield* Effect.exit(readAll(store.read(key, { start: 0, end: 9 }))))).toBe(true)
        expect(Exit.isFailure(yield* Effect.exit(store.getFile(key, join(dir, "never.mp4"))))).toBe(true)
        expect(existsSync(join(dir, "never.mp4"))).toBe(false)
      }))
  })
