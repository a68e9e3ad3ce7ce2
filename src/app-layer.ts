// Chooses the adapters. Nothing else in the code base decides which adapter serves a port.
import { Config, Data, Effect, Layer, Option, Redacted } from "effect"
import { AdminToken } from "../adapters/http/authentication.ts"
import { type RateLimitSettings, TokenRateLimits } from "../adapters/http/token-rate-limits.ts"
import { DEFAULT_REQUEST_LIMITS, RequestLimits, type RequestLimitSettings } from "../adapters/http/request-limits.ts"
import { CanvasAnimatorLive } from "../adapters/animation/canvas-animator.ts"
import { CanvasChatPainterLive } from "../adapters/chat/canvas-chat-painter.ts"
import { CanvasFootageMakerLive } from "../adapters/gameplay/canvas-footage-maker.ts"
import { IllustratorFromConfig } from "../adapters/imagery/illustrator-config.ts"
import { FfmpegEngineLive } from "../adapters/media/ffmpeg-engine.ts"
import { FfmpegTimelineRendererLive } from "../adapters/media/ffmpeg-timeline-renderer.ts"
import { OnnxTextDetectorLive } from "../adapters/media/onnx-text-detector.ts"
import { FaceApiFinderLive } from "../adapters/media/face-api-finder.ts"
import { ClipScorerFromConfig } from "../adapters/clips/clip-scorer-config.ts"
import { PocketsphinxAlignerLive } from "../adapters/media/pocketsphinx-aligner.ts"
import { SynthSoundEffectsLive } from "../adapters/media/synth-sound-effects.ts"
import { TranscriberFromConfig } from "../adapters/media/transcriber-config.ts"
import { MemoryStoresLive } from "../adapters/memory/memory-layer.ts"
import { ClientMetadataDocumentsLive } from "../adapters/oauth/client-metadata-documents.ts"
import { OutboundClientLive } from "../adapters/outbound/outbound-client.ts"
import { SourceFetcherLive } from "../adapters/outbound/source-fetcher.ts"
import { PgStoresLive } from "../adapters/postgres/pg-layer.ts"
import { FsBlobStoreLive } from "../adapters/storage/fs-blob-store.ts"
import { S3BlobStoreLive } from "../adapters/storage/s3-blob-store.ts"
import { S3ConfigFromEnv } from "../adapters/storage/s3-config.ts"
import { SecretBoxFromConfig } from "../adapters/secrets/secret-box-config.ts"
import { SpeechEnginesLive } from "../adapters/speech/speech-engines-layer.ts"
import { EmojilibKeywordsLive } from "../adapters/speech/emojilib-keywords.ts"
import { SubtlexWordFrequencyLive } from "../adapters/speech/subtlex-word-frequency.ts"
import { HttpsWebhookTransportLive } from "../adapters/webhooks/https-transport.ts"
import type { BlobStore } from "../domain/ports/blob-store.ts"
import { withAfterCommit } from "./kernel/after-commit.ts"
import { withChargeMetrics } from "./kernel/credit-metrics.ts"
import { ServiceConfig, type ServiceConfigShape } from "./kernel/service-config.ts"
import { ProviderKeysLive } from "./ops/provider-keys/parts/provider-keys-live.ts"

export interface AppSettings extends ServiceConfigShape {
  readonly dataDir: string
  /** The operator's token for /admin (the CLI uses it); none = admin endpoints refuse everyone. */
  readonly adminToken: string | null
  /** The per-token budgets of /v1 and /mcp in each API process. */
  readonly rateLimits: RateLimitSettings
  /** Body caps and deadlines of each API process; the defaults when left out. */
  readonly requestLimits?: RequestLimitSettings
}

/**
 * Media tools, outbound clients and settings: the same whatever stores serve the records and files. The
 * hosted media tools need ProviderKeys (the workspaces' own keys, read from the stores).
 */
const toolsLayer = (settings: AppSettings) =>
  Layer.mergeAll(
    FfmpegEngineLive,
    FfmpegTimelineRendererLive,
    IllustratorFromConfig,
    CanvasFootageMakerLive,
    CanvasChatPainterLive,
    CanvasAnimatorLive,
    SynthSoundEffectsLive,
    OnnxTextDetectorLive,
    FaceApiFinderLive,
    ClipScorerFromConfig,
    TranscriberFromConfig,
    PocketsphinxAlignerLive,
    SpeechEnginesLive,
    SubtlexWordFrequencyLive,
    EmojilibKeywordsLive,
    SourceFetcherLive.pipe(Layer.provide(OutboundClientLive)),
    HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
    ClientMetadataDocumentsLive.pipe(Layer.provide(OutboundClientLive)),
    ServiceConfig.layer({ baseUrl: settings.baseUrl, workDir: settings.workDir }),
    Layer.succeed(AdminToken, Option.map(Option.fromNullable(settings.adminToken), Redacted.make)),
    TokenRateLimits.layer(settings.rateLimits),
    RequestLimits.layer(settings.requestLimits ?? DEFAULT_REQUEST_LIMITS)
  )

const diskBlobs = (settings: AppSettings) => FsBlobStoreLive(`${settings.dataDir}/blobs`)

/**
 * The stores (their transactions running after-commit effects, their charges counted) and the files, the
 * server's secrets key, the workspaces' provider keys it opens, and the tools that use them.
 */
const assemble = <E1, E2>(
  settings: AppSettings,
  stores: Layer.Layer<Layer.Layer.Success<typeof MemoryStoresLive>, E1>,
  blobs: Layer.Layer<BlobStore, E2>
) => {
  const counted = withChargeMetrics(withAfterCommit(stores))
  const keyed = ProviderKeysLive.pipe(Layer.provideMerge(Layer.merge(counted, SecretBoxFromConfig(settings.dataDir))))
  return Layer.mergeAll(keyed, blobs, toolsLayer(settings).pipe(Layer.provide(keyed)))
}

/** Embedded defaults: in-memory stores, files on local disk, local media tools. */
export const embeddedLayer = (settings: AppSettings) => assemble(settings, MemoryStoresLive, diskBlobs(settings))

/** NODE_ENV=production without a database or an object store: records or files would be lost. */
export class StartupRefused extends Data.TaggedError("StartupRefused")<{ readonly message: string }> {}

/**
 * Reads the environment and picks: DATABASE_URL set -> PostgreSQL (migrated when the layer is built),
 * else memory; S3 settings present -> the bucket, else files under DATA_DIR/blobs.
 */
export const appLayerFromEnv = (settings: AppSettings) =>
  Effect.gen(function*() {
    const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
    const s3 = yield* S3ConfigFromEnv
    const production = (yield* Config.option(Config.string("NODE_ENV"))).pipe(Option.contains("production"))
    const missing = [
      ...(Option.isNone(databaseUrl) ? ["DATABASE_URL (PostgreSQL)"] : []),
      ...(Option.isNone(s3) ? ["an S3 bucket (BUCKET_NAME or S3_BUCKET, with AWS_* credentials)"] : [])
    ]
    if (production && missing.length > 0) {
      return yield* new StartupRefused({
        message: `NODE_ENV=production needs ${missing.join(" and ")}: in-memory records and local-disk files ` +
          "are lost on restart and invisible to other machines. Set them, or unset NODE_ENV to run the embedded mode."
      })
    }
    if (production && Option.isNone(yield* Config.option(Config.nonEmptyString("SECRETS_KEY")))) {
      return yield* new StartupRefused({
        message: "NODE_ENV=production needs SECRETS_KEY (32 bytes: `openssl rand -base64 32`), the same on every process: " +
          "it encrypts workspaces' provider keys, and a key generated on one machine's disk is unknown to the others."
      })
    }
    const stores = Option.match(databaseUrl, {
      onNone: () => MemoryStoresLive,
      onSome: (url) => PgStoresLive({ url })
    })
    const blobs = Option.match(s3, {
      onNone: () => diskBlobs(settings),
      onSome: S3BlobStoreLive
    })
    return {
      layer: assemble(settings, stores, blobs),
      /** Records private to this process and gone on restart. */
      inMemory: Option.isNone(databaseUrl),
      /** For the start-up banner. */
      store: Option.isSome(databaseUrl) ? "PostgreSQL (DATABASE_URL)" : "in memory",
      blobStore: Option.match(s3, {
        onNone: () => `local disk (${settings.dataDir}/blobs)`,
        onSome: (config) => `S3 bucket ${config.bucket}`
      })
    }
  })
