import { Config, Context, Effect, Layer } from "effect"

/** Settings every part of the kernel reads; built once from the environment in main. */
export interface ServiceConfigShape {
  /** Public base URL, no trailing slash: links in video objects start with it. */
  readonly baseUrl: string
  /** Local scratch space for media work (sources, audio, renders before upload to the BlobStore). */
  readonly workDir: string
}
export class ServiceConfig extends Context.Tag("ServiceConfig")<ServiceConfig, ServiceConfigShape>() {
  static readonly layer = (config: ServiceConfigShape) => Layer.succeed(ServiceConfig, config)

  static readonly fromEnv = Layer.effect(
    ServiceConfig,
    Effect.gen(function*() {
      const port = yield* Config.integer("PORT").pipe(Config.withDefault(8080))
      const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault("./data"))
      const baseUrl = yield* Config.string("BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
      return { baseUrl: baseUrl.replace(/\/+$/, ""), workDir: `${dataDir}/work` }
    })
  )
}
