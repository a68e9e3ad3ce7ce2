// BlobStore in an S3-compatible bucket (AWS S3, Fly's Tigris, MinIO). Bytes stream both ways, never
// whole in memory; large files go up as a multipart upload. Links are presigned GETs.
import { createReadStream, createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import { dirname } from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { NodeStream } from "@effect/platform-node"
import { Clock, Effect, Layer, Option, Redacted, Stream } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import type { S3Config } from "./s3-config.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** How many parts of one upload are in flight (and in memory) at once. */
const UPLOAD_QUEUE = 4

/** GetObject says NoSuchKey; HeadObject, which has no body to say more, NotFound. */
const isMissingKey = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound")

/** `inline; filename="…"`, with an RFC 6266 `filename*` when the name is not plain ASCII. */
const contentDisposition = (fileName: string): string => {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")
  return ascii === fileName
    ? `inline; filename="${ascii}"`
    : `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`
}

export const S3BlobStoreLive = (config: S3Config): Layer.Layer<BlobStore> =>
  Layer.scoped(
    BlobStore,
    Effect.gen(function*() {
      const client = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new S3Client({
            region: config.region,
            forcePathStyle: config.forcePathStyle,
            ...Option.match(config.endpoint, { onNone: () => ({}), onSome: (endpoint) => ({ endpoint }) }),
            ...Option.match(config.credentials, {
              onNone: () => ({}),
              onSome: ({ accessKeyId, secretAccessKey }) => ({
                credentials: { accessKeyId, secretAccessKey: Redacted.value(secretAccessKey) }
              })
            }),
            // Checksums only where S3 demands them: since SDK 3.729 every upload carries CRC checksum
            // headers by default, which some S3-compatible stores refuse (aws/aws-sdk-js-v3#6810).
            requestChecksumCalculation: "WHEN_REQUIRED",
            responseChecksumValidation: "WHEN_REQUIRED"
          })
        ),
        (client) => Effect.sync(() => client.destroy())
      )
      const Bucket = config.bucket
      const objectKey = (key: string) => `${config.prefix}${key}`

      /** Runs one S3 call; interruption aborts it. Any failure is a defect, a missing key one that says so. */
      const s3 = <A>(key: string, f: (signal: AbortSignal) => Promise<A>): Effect.Effect<A> =>
        Effect.tryPromise({ try: f, catch: (error) => error }).pipe(
          Effect.catchAll((error) =>
            isMissingKey(error)
              ? Effect.dieMessage(`S3BlobStore: no blob at key ${JSON.stringify(key)} in bucket ${Bucket}`)
              : Effect.die(error)
          )
        )

      const getObject = (key: string, range?: { readonly start: number; readonly end: number }) =>
        Effect.acquireRelease(
          s3(key, async (abortSignal) => {
            const { Body } = await client.send(
              new GetObjectCommand({
                Bucket,
                Key: objectKey(key),
                ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` })
              }),
              { abortSignal }
            )
            if (!(Body instanceof Readable)) throw new Error("S3BlobStore: GetObject gave no Node stream")
            return Body
          }),
          // An unread body holds its connection open.
          (body) => Effect.sync(() => body.destroy())
        )

      return BlobStore.of({
        // The local file goes once uploaded, as a move would leave it: callers need not clean up.
        putFile: (key, localPath) =>
          s3(key, async (signal) => {
            const { size } = await fs.stat(localPath)
            const body = createReadStream(localPath)
            try {
              const upload = new Upload({
                client,
                params: { Bucket, Key: objectKey(key), Body: body },
                partSize: config.partSizeBytes,
                queueSize: UPLOAD_QUEUE,
                leavePartsOnError: false
              })
              signal.addEventListener("abort", () => void upload.abort())
              await upload.done()
            } finally {
              body.destroy()
            }
            await fs.rm(localPath, { force: true })
            return { bytes: size }
          }).pipe(withSpan("S3BlobStore.putFile", { attributes: { key, partSize: config.partSizeBytes } })),
        getFile: (key, localPath) =>
          Effect.scoped(Effect.flatMap(getObject(key), (body) =>
            s3(key, async () => {
              await fs.mkdir(dirname(localPath), { recursive: true })
              try {
                await pipeline(body, createWriteStream(localPath))
              } catch (error) {
                await fs.rm(localPath, { force: true })
                throw error
              }
            }))).pipe(withSpan("S3BlobStore.getFile", { attributes: { key } })),
        size: (key) =>
          s3(key, async (abortSignal) => {
            const { ContentLength } = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }), {
              abortSignal
            })
            if (ContentLength === undefined) throw new Error("S3BlobStore: HeadObject gave no length")
            return ContentLength
          }).pipe(withSpan("S3BlobStore.size", { attributes: { key } })),
        read: (key, range) =>
          Stream.unwrapScoped(
            Effect.gen(function*() {
              const valid = range === undefined ||
                (Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end) && 0 <= range.start &&
                  range.start <= range.end)
              if (!valid) {
                return yield* Effect.dieMessage(`S3BlobStore: invalid range ${JSON.stringify(range)}`)
              }
              const body = yield* getObject(key, range)
              return NodeStream.fromReadable<unknown, Uint8Array>(() => body, (error) => error)
            })
          ).pipe(Stream.orDie, Stream.withSpan("S3BlobStore.read", { attributes: { key } })),
        // S3 answers a delete of a missing key with success too.
        remove: (key) =>
          s3(key, async (abortSignal) => {
            await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal })
          }).pipe(withSpan("S3BlobStore.remove", { attributes: { key } })),
        signedUrl: (key, options) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            s3(key, () =>
              getSignedUrl(
                client,
                new GetObjectCommand({
                  Bucket,
                  Key: objectKey(key),
                  ResponseContentDisposition: contentDisposition(options.fileName),
                  ResponseContentType: options.contentType
                }),
                { expiresIn: options.expiresInSeconds, signingDate: new Date(now) }
              ))).pipe(
              Effect.map(Option.some),
              withSpan("S3BlobStore.signedUrl", { attributes: { key, expiresInSeconds: options.expiresInSeconds } })
            )
      })
    })
  )
