import { Effect } from "effect"
import { type ClipsObject, type ClipsRecord, type ClipVideoFacts, presentClipsRecord } from "../../domain/clips.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { editorUrl } from "./links.ts"
import { ServiceConfig } from "./service-config.ts"

/** The public clips object, identical for GET, the tool and webhook bodies: each created clip with its video's link and status. */
export const presentClips = (clips: ClipsRecord): Effect.Effect<ClipsObject, never, VideoStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const ids = (clips.clips ?? []).flatMap((clip) => clip.videoId === null ? [] : [clip.videoId])
    // One read for every clip's video: the record is polled while its clips render.
    const videos = yield* (yield* VideoStore).getManyById(ids)
    const facts = new Map<string, ClipVideoFacts>(videos.map((v) => [v.id, { editorUrl: editorUrl(baseUrl, v.editorToken), status: v.status }]))
    return presentClipsRecord(clips, (videoId) => facts.get(videoId) ?? null)
  })
