// BlobStore on the local disk: each key is a file under the root directory.
import { randomUUID } from "node:crypto"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { NodeStream } from "@effect/platform-node"
import { Effect, Layer, Option, Stream } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined

/** Moves a file. Across devices, where rename fails, it copies to a temporary name so no reader sees half a file. */
const moveFile = async (from: string, to: string): Promise<void> => {
  try {
    await fs.rename(from, to)
  } catch (error) {
    if (errorCode(error) !== "EXDEV") throw error
    const partial = `${to}.${randomUUID()}.part`
    try {
      await fs.copyFile(from, partial)
      await fs.rename(partial, to)
    } finally {
      await fs.rm(partial, { force: true })
    }
    await fs.rm(from, { force: true })
  }
}

/**
 * Gives a stored file a second name for a tool to read: a hard link, instant and taking no space, where
 * both lie on one file system (the data folder's blobs and work); a copy elsewhere. A copy of an hour's
 * source took seconds of the job and as much disk again. Stored files are only ever replaced whole
 * (moveFile renames), so a link keeps the bytes it was given, even when the blob is removed meanwhile.
 */
const linkOrCopy = async (from: string, to: string): Promise<void> => {
  // What is there goes first: it may be another stored file's second name, which a copy would write into.
  await fs.rm(to, { force: true })
  try {
    await fs.link(from, to)
  } catch (error) {
    // The source missing fails as a copy would; anything else (another device, no links there) copies.
    if (errorCode(error) === "ENOENT") throw error
    await fs.copyFile(from, to)
  }
}

export const FsBlobStoreLive = (rootDir: string): Layer.Layer<BlobStore> =>
  Layer.effect(
    BlobStore,
    Effect.gen(function*() {
      const root = resolve(rootDir)
      yield* Effect.promise(() => fs.mkdir(root, { recursive: true }))

      // Keys are `/`-separated names; anything that could point outside the root is a bug in the caller.
      const pathOf = (key: string): Effect.Effect<string> => {
        const segments = key.split("/")
        return /[\\\0]/.test(key) || segments.some((s) => s === "" || s === "." || s === "..")
          ? Effect.dieMessage(`FsBlobStore: refused key ${JSON.stringify(key)}`)
          : Effect.succeed(join(root, ...segments))
      }

      const onDisk = <A>(key: string, f: (path: string) => Promise<A>): Effect.Effect<A> =>
        Effect.flatMap(pathOf(key), (path) => Effect.tryPromise(() => f(path))).pipe(Effect.orDie)

      return BlobStore.of({
        putFile: (key, localPath) =>
          onDisk(key, async (path) => {
            await fs.mkdir(dirname(path), { recursive: true })
            await moveFile(localPath, path)
            return { bytes: (await fs.stat(path)).size }
          }).pipe(withSpan("FsBlobStore.putFile")),
        getFile: (key, localPath) =>
          onDisk(key, async (path) => {
            await fs.mkdir(dirname(localPath), { recursive: true })
            await linkOrCopy(path, localPath)
          }).pipe(withSpan("FsBlobStore.getFile")),
        size: (key) =>
          onDisk(key, async (path) => (await fs.stat(path)).size).pipe(withSpan("FsBlobStore.size")),
        read: (key, range) =>
          Stream.unwrap(
            Effect.gen(function*() {
              const path = yield* pathOf(key)
              const valid = range === undefined ||
                (Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end) && 0 <= range.start &&
                  range.start <= range.end)
              if (!valid) {
                return yield* Effect.dieMessage(`FsBlobStore: invalid range ${JSON.stringify(range)}`)
              }
              return NodeStream.fromReadable<unknown>(
                () => createReadStream(path, range === undefined ? {} : { start: range.start, end: range.end }),
                (error) => error
              )
            })
          ).pipe(Stream.orDie, Stream.withSpan("FsBlobStore.read")),
        // A missing blob is already removed.
        remove: (key) => onDisk(key, (path) => fs.rm(path, { force: true })).pipe(withSpan("FsBlobStore.remove")),
        // Nothing but this service can serve a file on its disk.
        signedUrl: () => Effect.succeed(Option.none())
      })
    })
  )
