import { Effect, Option } from "effect"
import { type CaptionRemovalObject, type CaptionRemovalRecord, presentRemoval } from "../../domain/caption-removal.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { fileUrl } from "./links.ts"
import { ServiceConfig } from "./service-config.ts"

/** The public caption removal object, identical for GET, the tool and webhook bodies: with the cleaned mp4's link while it is kept. */
export const presentCaptionRemoval = (
  removal: CaptionRemovalRecord
): Effect.Effect<CaptionRemovalObject, never, FileStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const file = removal.resultFileId === null ? Option.none() : yield* (yield* FileStore).get(removal.resultFileId)
    const url = Option.match(Option.filter(file, (f) => f.deletedAt === null), { onNone: () => null, onSome: (f) => fileUrl(baseUrl, f) })
    return presentRemoval(removal, url)
  })
