// Chooses the adapters. Nothing else in the code base decides which adapter serves a port.
import { Layer, Option, Redacted } from "effect"
import { FfmpegEngineLive } from "../adapters/media/ffmpeg-engine.ts"
import { MemoryStoresLive } from "../adapters/memory/memory-layer.ts"
import { OutboundClientLive } from "../adapters/outbound/outbound-client.ts"
import { SourceFetcherLive } from "../adapters/outbound/source-fetcher.ts"
import { FsBlobStoreLive } from "../adapters/storage/fs-blob-store.ts"
import { HttpsWebhookTransportLive } from "../adapters/webhooks/https-transport.ts"
import { TranscriberFromConfig } from "../adapters/media/transcriber-config.ts"
import { AdminToken } from "../adapters/http/authentication.ts"
import { ServiceConfig, type ServiceConfigShape } from "./kernel/service-config.ts"

export interface AppSettings extends ServiceConfigShape {
  readonly dataDir: string
  /** The operator's token for /admin (the CLI uses it); none = admin endpoints refuse everyone. */
  readonly adminToken: string | null
}

/** Embedded defaults: in-memory stores, files on local disk, local media tools. */
export const embeddedLayer = (settings: AppSettings) =>
  Layer.mergeAll(
    MemoryStoresLive,
    FsBlobStoreLive(`${settings.dataDir}/blobs`),
    FfmpegEngineLive,
    TranscriberFromConfig,
    SourceFetcherLive.pipe(Layer.provide(OutboundClientLive)),
    HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
    ServiceConfig.layer({ baseUrl: settings.baseUrl, workDir: settings.workDir }),
    Layer.succeed(AdminToken, Option.map(Option.fromNullable(settings.adminToken), Redacted.make))
  )
