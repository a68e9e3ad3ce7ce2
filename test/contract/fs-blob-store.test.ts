// The BlobStore contract on the local disk, plus what only a disk gets wrong: moves, chunked reads, leaving the root.
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Exit, Stream } from "effect"
import { FsBlobStoreLive } from "../../adapters/storage/fs-blob-store.ts"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { blobStoreContract } from "./blob-store.contract.ts"

// The root sits one level down, so a key that escaped it would land in `base`, still inside the test's own directory.
const base = mkdtempSync(join(tmpdir(), "reelwright-fs-blobs-"))
const root = join(base, "root")
afterAll(() => rmSync(base, { recursive: true, force: true }))

blobStoreContract("local disk", FsBlobStoreLive(join(base, "contract")))

/** Writes `bytes` random bytes to a new local file in `dir`. */
const localFile = (dir: string, name: string, bytes: number): Buffer => {
  const content = randomBytes(bytes)
  writeFileSync(join(dir, name), content)
  return content
}

layer(FsBlobStoreLive(root))("FsBlobStore", (it) => {
  it.effect("moves the file into the root", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      localFile(base, "moved.bin", 1_000)
      expect(yield* store.putFile("a/b/moved.bin", join(base, "moved.bin"))).toEqual({ bytes: 1_000 })
      expect(existsSync(join(base, "moved.bin"))).toBe(false)
      expect(statSync(join(root, "a", "b", "moved.bin")).size).toBe(1_000)
    }))

  // /dev/shm is a separate file system on most Linux hosts, where rename fails with EXDEV and links are refused.
  const shm = "/dev/shm"
  const noOtherDevice = !existsSync(shm) || statSync(shm).dev === statSync(base).dev
  /** A folder on that other device, removed after the test. */
  const farDir = Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(shm, "reelwright-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

  it.scoped.skipIf(noOtherDevice)("copies the file when it lies on another device", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      const dir = yield* farDir
      const content = localFile(dir, "far.bin", 5_000)
      expect(yield* store.putFile("far.bin", join(dir, "far.bin"))).toEqual({ bytes: 5_000 })
      expect(existsSync(join(dir, "far.bin"))).toBe(false)
      const back = Buffer.concat(Chunk.toArray(yield* Stream.runCollect(store.read("far.bin"))))
      expect(back.equals(content)).toBe(true)
    }))

  it.effect("gives a tool the stored file under a second name, which keeps its bytes whatever the store does next", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      const content = localFile(base, "linked.bin", 50_000)
      yield* store.putFile("linked.bin", join(base, "linked.bin"))
      const local = join(base, "work", "source")
      yield* store.getFile("linked.bin", local)
      // A link, not a copy: the same file, however large, at once and in no more space.
      expect(statSync(local).ino).toBe(statSync(join(root, "linked.bin")).ino)
      // The job's scratch folder removed: the blob stays.
      rmSync(local)
      expect(yield* store.size("linked.bin")).toBe(50_000)
      // Stored again or removed while a job reads it: the job's file keeps the bytes it was given.
      yield* store.getFile("linked.bin", local)
      localFile(base, "newer.bin", 10)
      yield* store.putFile("linked.bin", join(base, "newer.bin"))
      expect(readFileSync(local).equals(content)).toBe(true)
      yield* store.remove("linked.bin")
      expect(readFileSync(local).equals(content)).toBe(true)
      rmSync(local)
      // Another blob put at the same path takes the name; the one that held it is not written into.
      const other = localFile(base, "other.bin", 20_000)
      yield* store.putFile("other.bin", join(base, "other.bin"))
      yield* store.getFile("other.bin", local)
      expect(statSync(local).ino).toBe(statSync(join(root, "other.bin")).ino)
      const first = localFile(base, "first.bin", 30_000)
      yield* store.putFile("first.bin", join(base, "first.bin"))
      yield* store.getFile("first.bin", local)
      expect(readFileSync(local).equals(first)).toBe(true)
      expect(readFileSync(join(root, "other.bin")).equals(other)).toBe(true)
      rmSync(local)
    }))

  it.scoped.skipIf(noOtherDevice)("copies the stored file to a tool's path on another device", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      const content = localFile(base, "near.bin", 5_000)
      yield* store.putFile("near.bin", join(base, "near.bin"))
      const dir = yield* farDir
      yield* store.getFile("near.bin", join(dir, "source"))
      expect(readFileSync(join(dir, "source")).equals(content)).toBe(true)
    }))

  it.effect("streams a large blob in several chunks", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      localFile(base, "large.bin", 1_000_000)
      yield* store.putFile("large.bin", join(base, "large.bin"))
      const chunks = yield* Stream.runCollect(store.read("large.bin", { start: 1, end: 999_998 }))
      expect(Chunk.size(chunks)).toBeGreaterThan(1)
      expect(Chunk.reduce(chunks, 0, (sum, chunk) => sum + chunk.length)).toBe(999_998)
    }))

  it.effect("refuses keys that could leave the root", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      writeFileSync(join(base, "secret.txt"), "outside the root")
      const refused = <A>(effect: Effect.Effect<A>) => Effect.map(Effect.exit(effect), Exit.isFailure)
      const keys = ["../secret.txt", "a/../../secret.txt", join(base, "secret.txt"), "/etc/hostname", "", "a//b", "./x"]
      for (const key of keys) {
        expect(yield* refused(store.size(key))).toBe(true)
        expect(yield* refused(Stream.runDrain(store.read(key)))).toBe(true)
        expect(yield* refused(store.getFile(key, join(base, "copied.txt")))).toBe(true)
        expect(yield* refused(store.remove(key))).toBe(true)
      }
      expect(existsSync(join(base, "copied.txt"))).toBe(false)
      expect(existsSync(join(base, "secret.txt"))).toBe(true)

      localFile(base, "escape.bin", 10)
      expect(yield* refused(store.putFile("../escaped.bin", join(base, "escape.bin")))).toBe(true)
      expect(existsSync(join(base, "escaped.bin"))).toBe(false)
      expect(existsSync(join(base, "escape.bin"))).toBe(true)
    }))

  it.effect("refuses an invalid range", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      localFile(base, "ranged.bin", 100)
      yield* store.putFile("ranged.bin", join(base, "ranged.bin"))
      expect(Exit.isFailure(yield* Effect.exit(Stream.runDrain(store.read("ranged.bin", { start: 5, end: 4 }))))).toBe(
        true
      )
      expect(Exit.isFailure(yield* Effect.exit(Stream.runDrain(store.read("ranged.bin", { start: -1, end: 4 })))))
        .toBe(true)
    }))
})
