// Settings for an S3-compatible BlobStore (AWS S3, Fly's Tigris, MinIO), read from the environment.
// S3_BUCKET (or BUCKET_NAME, which `fly storage create` sets) switches it on; the rest have defaults,
// and the keys fall back to the AWS_* names that Tigris and the AWS tools set.
import { Config, ConfigError, Effect, Either, Option, type Redacted } from "effect"

export interface S3Config {
  readonly bucket: string
  /** Where a non-AWS store answers (Tigris, MinIO); None = AWS S3 for the region. */
  readonly endpoint: Option.Option<string>
  readonly region: string
  /** None = the AWS SDK's own chain (environment, profile, instance role). */
  readonly credentials: Option.Option<{ readonly accessKeyId: string; readonly secretAccessKey: Redacted.Redacted }>
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`: MinIO and most local servers need it. */
  readonly forcePathStyle: boolean
  /** Put before every key, so several services can share a bucket: "" or ending in "/". */
  readonly prefix: string
  /** Files larger than this go up in parts of this size, a few at a time, never whole in memory. */
  readonly partSizeBytes: number
}

const MIB = 1024 * 1024
/** S3 refuses parts below 5 MiB (all but the last). */
const MIN_PART_MIB = 5

const withFallback = <A>(primary: Config.Config<A>, fallback: Config.Config<A>) =>
  Config.orElse(primary, () => fallback)

const optionalString = (name: string, fallback: string) =>
  Config.option(withFallback(Config.nonEmptyString(name), Config.nonEmptyString(fallback)))

const credentials = Config.all([
  optionalString("S3_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"),
  Config.option(Config.redacted(withFallback(
    Config.nonEmptyString("S3_SECRET_ACCESS_KEY"),
    Config.nonEmptyString("AWS_SECRET_ACCESS_KEY")
  )))
]).pipe(Config.mapOrFail(([accessKeyId, secretAccessKey]) =>
  Option.isSome(accessKeyId) && Option.isSome(secretAccessKey)
    ? Either.right(Option.some({ accessKeyId: accessKeyId.value, secretAccessKey: secretAccessKey.value }))
    : Option.isNone(accessKeyId) && Option.isNone(secretAccessKey)
    ? Either.right(Option.none())
    : Either.left(ConfigError.MissingData(
      [],
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) go together: set both or neither."
    ))
))

/** "media", "/media/" and "media/" all mean keys under "media/". */
const normalizePrefix = (prefix: string): string => {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "")
  return trimmed === "" ? "" : `${trimmed}/`
}

const settings = (bucket: string): Config.Config<S3Config> =>
  Config.all({
    bucket: Config.succeed(bucket),
    endpoint: optionalString("S3_ENDPOINT", "AWS_ENDPOINT_URL_S3"),
    region: withFallback(Config.nonEmptyString("S3_REGION"), Config.nonEmptyString("AWS_REGION")).pipe(
      Config.withDefault("us-east-1")
    ),
    credentials,
    forcePathStyle: Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false)),
    prefix: Config.string("S3_PREFIX").pipe(Config.withDefault(""), Config.map(normalizePrefix)),
    partSizeBytes: Config.integer("S3_PART_SIZE_MIB").pipe(
      Config.withDefault(16),
      Config.validate({ message: `S3_PART_SIZE_MIB must be at least ${MIN_PART_MIB}`, validation: (mib) => mib >= MIN_PART_MIB }),
      Config.map((mib) => mib * MIB)
    )
  })

/** The S3 settings, or None when no bucket is named (files then stay on the local disk). */
export const S3ConfigFromEnv: Effect.Effect<Option.Option<S3Config>, ConfigError.ConfigError> = Effect.gen(function*() {
  const bucket = yield* Config.option(
    Config.nonEmptyString("S3_BUCKET").pipe(Config.orElse(() => Config.nonEmptyString("BUCKET_NAME")))
  )
  return Option.isNone(bucket) ? Option.none() : Option.some(yield* settings(bucket.value))
})
