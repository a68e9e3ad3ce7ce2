// What every VideoStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { CaptionEdits } from "../../domain/caption-edits.ts"
import type { GeneratedProject } from "../../domain/generated-project.ts"
import { type VideoPage, VideoStore } from "../../domain/ports/video-store.ts"
import type { FaceAnalysis } from "../../domain/reframe.ts"
import type { Status, VideoRecord } from "../../domain/video.ts"
import { aVideo } from "./fixtures.ts"

export const videoStoreContract = (name: string, stores: Layer.Layer<VideoStore, unknown>): void =>
  layer(stores)(`VideoStore (${name})`, (it) => {
    /** Two new videos: what is saved for one must not show for the other. */
    const twoVideos = Effect.gen(function*() {
      const store = yield* VideoStore
      const [video, other] = [aVideo(randomUUID()), aVideo(randomUUID())]
      yield* store.insert(video)
      yield* store.insert(other)
      return { store, video, other }
    })

    /** Follows the cursors to the end and returns every page. */
    const allPages = (workspaceId: string, status: Status | undefined, limit: number) =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const pages: Array<VideoPage> = []
        let cursor: string | undefined
        do {
          const page = yield* store.list({ workspaceId, status, limit, cursor })
          pages.push(page)
          cursor = page.nextCursor ?? undefined
        } while (cursor !== undefined && pages.length < 100)
        return pages
      })

    it.effect("gets a video only within its own workspace", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const video = aVideo(randomUUID())
        yield* store.insert(video)
        expect(Option.getOrThrow(yield* store.get(video.workspaceId, video.id))).toEqual(video)
        expect(Option.isNone(yield* store.get(randomUUID(), video.id))).toBe(true)
        expect(Option.getOrThrow(yield* store.getById(video.id))).toEqual(video)
        expect(Option.isNone(yield* store.getById(randomUUID()))).toBe(true)
        expect(Option.getOrThrow(yield* store.getForUpdate(video.id))).toEqual(video)
        expect(Option.isNone(yield* store.getForUpdate(randomUUID()))).toBe(true)
      }))

    it.effect("reads many videos by id at once, of any workspace, leaving out the unknown ones", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const [a, b] = [aVideo(randomUUID()), aVideo(randomUUID())]
        yield* store.insert(a)
        yield* store.insert(b)
        yield* store.insert(aVideo(randomUUID()))
        const found = yield* store.getManyById([b.id, randomUUID(), a.id])
        expect([...found].sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)))
        expect(yield* store.getManyById([])).toEqual([])
      }))

    it.effect("finds a video by its editor token", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const video = aVideo(randomUUID())
        yield* store.insert(video)
        expect(Option.getOrThrow(yield* store.findByEditorToken(video.editorToken))).toEqual(video)
        expect(Option.isNone(yield* store.findByEditorToken(randomUUID()))).toBe(true)
      }))

    it.effect("updates every field of a video", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const video = aVideo(randomUUID(), { renderOptions: { format: "standard", frameRate: 30 }, render: true })
        yield* store.insert(video)
        const finished: VideoRecord = {
          ...video,
          status: "completed",
          step: "completed",
          updatedAt: "2025-01-02T03:05:00.000Z",
          work: 1,
          generated: true,
          videoFileId: randomUUID(),
          thumbnailFileId: randomUUID(),
          durationSeconds: 12.5,
          cutSeconds: 1.25,
          width: 360,
          height: 640,
          export: {
            status: "completed",
            format: "greenscreen",
            frameRate: 60,
            startedAt: "2025-01-02T03:04:30.000Z",
            progress: 1,
            finishedAt: "2025-01-02T03:05:00.000Z"
          },
          mediaDeletedAt: "2025-01-02T03:06:00.000Z",
          replacedFileIds: [randomUUID(), randomUUID()]
        }
        yield* store.update(finished)
        expect(Option.getOrThrow(yield* store.getById(video.id))).toEqual(finished)
      }))

    it.effect("lists newest first, id descending on equal times, page by page", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const workspaceId = randomUUID()
        const at = ["2025-03-01T00:00:00.000Z", "2025-03-02T00:00:00.000Z", "2025-03-02T00:00:00.000Z",
          "2025-03-03T00:00:00.000Z", "2025-03-02T00:00:00.000Z"]
        const videos = at.map((createdAt) => aVideo(workspaceId, { createdAt }))
        for (const video of videos) yield* store.insert(video)
        yield* store.insert(aVideo(randomUUID(), { createdAt: "2025-03-04T00:00:00.000Z" }))

        const expected = [...videos]
          .sort((a, b) => a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1)
          .map((v) => v.id)
        const pages = yield* allPages(workspaceId, undefined, 2)
        expect(pages.flatMap((p) => p.items.map((v) => v.id))).toEqual(expected)
        expect(pages.every((p) => p.items.length <= 2)).toBe(true)
        expect(pages[0]?.items[0]).toEqual(videos[3])

        const whole = yield* store.list({ workspaceId, status: undefined, limit: 10, cursor: undefined })
        expect(whole.items.map((v) => v.id)).toEqual(expected)
        expect(whole.nextCursor).toBeNull()
      }))

    it.effect("filters the list by status", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const workspaceId = randomUUID()
        const failed = [1, 2, 3].map((day) =>
          aVideo(workspaceId, { status: "failed", error: "bad source", createdAt: `2025-04-0${day}T00:00:00.000Z` })
        )
        yield* store.insert(aVideo(workspaceId, { createdAt: "2025-04-05T00:00:00.000Z" }))
        for (const video of failed) yield* store.insert(video)

        const pages = yield* allPages(workspaceId, "failed", 2)
        expect(pages.flatMap((p) => p.items.map((v) => v.id))).toEqual(failed.map((v) => v.id).reverse())
        const none = yield* store.list({ workspaceId, status: "completed", limit: 5, cursor: undefined })
        expect(none).toEqual({ items: [], nextCursor: null })
      }))

    it.effect("saves and reads the timed words of a video", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const video = aVideo(randomUUID())
        yield* store.insert(video)
        expect(Option.isNone(yield* store.getWords(video.id))).toBe(true)
        const words = [{ text: "Hello", start: 0, end: 0.42 }, { text: "world", start: 0.5, end: 1.25, emphasis: true, emoji: "🌍" }]
        yield* store.saveWords(video.id, words)
        expect(Option.getOrThrow(yield* store.getWords(video.id))).toEqual(words)
        const edited = [{ text: "Hi", start: 0, end: 0.3 }]
        yield* store.saveWords(video.id, edited)
        expect(Option.getOrThrow(yield* store.getWords(video.id))).toEqual(edited)
      }))

    it.effect("saves a generated video's project and replaces it whole", () =>
      Effect.gen(function*() {
        const store = yield* VideoStore
        const video = aVideo(randomUUID())
        yield* store.insert(video)
        expect(Option.isNone(yield* store.getProject(video.id))).toBe(true)
        const project: GeneratedProject = {
          script: "One. Two.",
          voiceId: "festival-slt",
          aspectRatio: "9:16",
          seed: 42,
          narrationFileId: null,
          visuals: {
            _tag: "Illustrated",
            artStyleId: "watercolor",
            scenes: [{ text: "One.", startSeconds: 0, durationSeconds: 1.5, imageFileId: null, motion: "zoom-in" }]
          }
        }
        yield* store.saveProject(video.id, project)
        expect(Option.getOrThrow(yield* store.getProject(video.id))).toEqual(project)
        const drawn: GeneratedProject = {
          ...project,
          narrationFileId: "f1",
          visuals: { _tag: "Gameplay", footage: { _tag: "Game", game: "runner" }, top: null, footageFileId: "f2" }
        }
        yield* store.saveProject(video.id, drawn)
        expect(Option.getOrThrow(yield* store.getProject(video.id))).toEqual(drawn)
      }))

    it.effect("keeps caption edits, replaced whole at each save, apart per video", () =>
      Effect.gen(function*() {
        const { other, store, video } = yield* twoVideos
        expect(Option.isNone(yield* store.getCaptionEdits(video.id))).toBe(true)
        const first: CaptionEdits = {
          revision: 1,
          lineStarts: [0, 3, 5],
          style: { position: "top", marginRatio: 0.2, textColor: "#FF0000" },
          hook: { text: "Three things nobody tells you", seconds: 2.5 },
          platform: "reels",
          emphasis: "auto",
          emoji: "auto",
          trim: { silence: "fast", fillers: true },
          cuts: [{ start: 0, end: 0.4, reason: "silence" }, { start: 2.5, end: 2.9, reason: "filler" }],
          reframe: { aspectRatio: "9:16", mode: "split" },
          framing: {
            mode: "split",
            aspectRatio: "9:16",
            sourceWidth: 1920,
            sourceHeight: 1080,
            width: 1080,
            height: 1920,
            crop: { width: 960, height: 854 },
            paths: [[{ seconds: 0, x: 0, y: 100 }, { seconds: 2.5, x: 40, y: 90 }], [{ seconds: 0, x: 960, y: 120 }, { seconds: 3, x: 900, y: 120, cut: true }]]
          }
        }
        yield* store.saveCaptionEdits(video.id, first)
        expect(Option.getOrThrow(yield* store.getCaptionEdits(video.id))).toEqual(first)
        const second: CaptionEdits = { revision: 2, lineStarts: null, style: {}, hook: null, platform: "none", emphasis: "off", emoji: "off", trim: null, cuts: [], reframe: null, framing: null }
        yield* store.saveCaptionEdits(video.id, second)
        expect(Option.getOrThrow(yield* store.getCaptionEdits(video.id))).toEqual(second)
        expect(Option.isNone(yield* store.getCaptionEdits(other.id))).toBe(true)
      }))

    it.effect("keeps a face analysis, replaced whole at each save, apart per video", () =>
      Effect.gen(function*() {
        const { other, store, video } = yield* twoVideos
        expect(Option.isNone(yield* store.getFaceAnalysis(video.id))).toBe(true)
        const first: FaceAnalysis = {
          source: { width: 1920, height: 1080, durationSeconds: 61.5 },
          faces: {
            samples: [
              { seconds: 0.5, faces: [] },
              { seconds: 1.5, faces: [{ x: 100.25, y: 80, width: 220, height: 260, score: 0.81 }, { x: 1300, y: 90, width: 200, height: 240, score: 0.66, mouth: 0.042 }] }
            ],
            sceneCuts: [12.4, 40]
          }
        }
        yield* store.saveFaceAnalysis(video.id, first)
        expect(Option.getOrThrow(yield* store.getFaceAnalysis(video.id))).toEqual(first)
        const second: FaceAnalysis = { source: { width: 1280, height: 720, durationSeconds: 3 }, faces: { samples: [], sceneCuts: [] } }
        yield* store.saveFaceAnalysis(video.id, second)
        expect(Option.getOrThrow(yield* store.getFaceAnalysis(video.id))).toEqual(second)
        expect(Option.isNone(yield* store.getFaceAnalysis(other.id))).toBe(true)
      }))
  })
