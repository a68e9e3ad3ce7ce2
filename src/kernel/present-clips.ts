import { Effect, Option } from "effect"
import { type ClipsObject, type ClipsRecord, type ClipVideoFacts, presentClipsRecord } from "../../domain/clips.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { editorUrl } from "./links.ts"
import { ServiceConfig } from "./service-config.ts"

/** The public clips object, identical for GET, the tool and webhook bodies: each created clip with its video's link and status. */
export const presentClips = (clips: ClipsRecord): Effect.Effect<ClipsObject, never, VideoStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const videos = yield* VideoStore
    const facts = new Map<string, ClipVideoFacts>()
    for (const clip of clips.clips ?? []) {
      if (clip.videoId === null) continue
      const video = yield* videos.getById(clip.videoId)
      if (Option.isSome(video)) facts.set(clip.videoId, { editorUrl: editorUrl(baseUrl, video.value.editorToken), status: video.value.status })
    }
    return presentClipsRecord(clips, (videoId) => facts.get(videoId) ?? null)
  })
