// An S3-compatible server in the test process (s3rver, files in a temporary directory) on a loopback
// port, and an S3BlobStore pointed at it. s3rver checks that a presigned URL has not expired, but it
// does not verify signatures.
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Option, Redacted } from "effect"
import S3rver from "s3rver"
import { S3BlobStoreLive } from "../../adapters/storage/s3-blob-store.ts"
import type { S3Config } from "../../adapters/storage/s3-config.ts"

export const TEST_BUCKET = "reelwright-test"
const MIB = 1024 * 1024

interface ObjectOptions {
  readonly start?: number
  readonly end?: number | string
}
interface S3rverStore {
  getObject: (bucket: string, key: string, options?: ObjectOptions) => Promise<unknown>
}

/**
 * s3rver 3.7.1 reads `Range: bytes=0-0` as open-ended (its store computes `options.end || Infinity`)
 * and sends the whole object where S3 sends one byte. The string "0" passes that test and still
 * counts as 0 in its arithmetic. (Suffix ranges, `bytes=-N`, it also gets wrong: tests avoid them.)
 */
const fixRangeEndingAtZero = (server: S3rver): void => {
  const store = (server as unknown as { readonly store: S3rverStore }).store
  const getObject = store.getObject.bind(store)
  store.getObject = (bucket, key, options) => getObject(bucket, key, options?.end === 0 ? { ...options, end: "0" } : options)
}

/** s3rver with one empty bucket, closed with the scope. Close waits for open responses: read every body. */
export const s3Server = Effect.acquireRelease(
  Effect.promise(async () => {
    const directory = await mkdtemp(join(tmpdir(), "reelwright-s3rver-"))
    const server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      directory,
      silent: true,
      configureBuckets: [{ name: TEST_BUCKET, configs: [] }]
    })
    fixRangeEndingAtZero(server)
    const { port } = await server.run()
    return { server, directory, endpoint: `http://127.0.0.1:${port}` }
  }),
  ({ directory, server }) =>
    Effect.promise(async () => {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    })
).pipe(Effect.map(({ endpoint }) => ({ endpoint })))

/** Settings for that server: s3rver knows one account, S3RVER/S3RVER, and wants path-style URLs. */
export const testS3Config = (endpoint: string, overrides: Partial<S3Config> = {}): S3Config => ({
  bucket: TEST_BUCKET,
  endpoint: Option.some(endpoint),
  region: "us-east-1",
  credentials: Option.some({ accessKeyId: "S3RVER", secretAccessKey: Redacted.make("S3RVER") }),
  forcePathStyle: true,
  prefix: "",
  partSizeBytes: 5 * MIB,
  ...overrides
})

/** A fresh server and an S3BlobStore on it. */
export const S3BlobStoreTest = (overrides: Partial<S3Config> = {}) =>
  Layer.unwrapScoped(Effect.map(s3Server, ({ endpoint }) => S3BlobStoreLive(testS3Config(endpoint, overrides))))
