// VideoStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { decodeListCursor, encodeListCursor, type ListPosition } from "../video-list-cursor.ts"
import { withSpan } from "../../src/kernel/spans.ts"



const compareText = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0

/** The list order: newest first, ties broken by id, descending. */
const newestFirst = (a: ListPosition, b: ListPosition): number =>
  compareText(b.createdAt, a.createdAt) || compareText(b.id, a.id)

export const MemoryVideoStoreLive = Layer.effect(
  VideoStore,
  Effect.map(MemoryDatabase, (db) =>
    VideoStore.of({
      insert: (video) =>
        db.write((t) => ({ ...t, videos: withRow(t.videos, video.id, video) })).pipe(
          withSpan("MemoryVideoStore.insert")
        ),
      get: (workspaceId, id) =>
        db.read((t) => Option.fromNullable(t.videos.get(id)).pipe(Option.filter((v) => v.workspaceId === workspaceId)))
          .pipe(withSpan("MemoryVideoStore.get")),
      getById: (id) =>
        db.read((t) => Option.fromNullable(t.videos.get(id))).pipe(withSpan("MemoryVideoStore.getById")),
      getManyById: (ids) =>
        db.read((t) => ids.flatMap((id) => t.videos.get(id) ?? [])).pipe(
          withSpan("MemoryVideoStore.getManyById", { attributes: { videos: ids.length } })
        ),
      // A memory transaction holds the whole database already.
      getForUpdate: (id) =>
        db.read((t) => Option.fromNullable(t.videos.get(id))).pipe(withSpan("MemoryVideoStore.getForUpdate")),
      findByEditorToken: (token) =>
        db.read((t) => Option.fromNullable([...t.videos.values()].find((v) => v.editorToken === token))).pipe(
          withSpan("MemoryVideoStore.findByEditorToken")
        ),
      update: (video) =>
        db.write((t) => ({ ...t, videos: updateRow(t.videos, video.id, () => video) })).pipe(
          withSpan("MemoryVideoStore.update")
        ),
      list: ({ cursor, limit, status, workspaceId }) =>
        db.read((t) => {
          // A cursor this adapter did not make points past the end: an empty page rather than a restart.
          const after = cursor === undefined ? Option.some(undefined) : decodeListCursor(cursor)
          if (Option.isNone(after)) return { items: [], nextCursor: null }
          const matching = [...t.videos.values()]
            .filter((v) =>
              v.workspaceId === workspaceId &&
              (status === undefined || v.status === status) &&
              (after.value === undefined || newestFirst(after.value, v) < 0)
            )
            .sort(newestFirst)
          const items = matching.slice(0, limit)
          const last = items[items.length - 1]
          return { items, nextCursor: matching.length > limit && last !== undefined ? encodeListCursor(last) : null }
        }).pipe(withSpan("MemoryVideoStore.list")),
      saveWords: (videoId, words) =>
        db.write((t) => ({ ...t, words: withRow(t.words, videoId, words) })).pipe(
          withSpan("MemoryVideoStore.saveWords")
        ),
      getWords: (videoId) =>
        db.read((t) => Option.fromNullable(t.words.get(videoId))).pipe(withSpan("MemoryVideoStore.getWords")),
      saveProject: (videoId, project) =>
        db.write((t) => ({ ...t, projects: withRow(t.projects, videoId, project) })).pipe(
          withSpan("MemoryVideoStore.saveProject")
        ),
      getProject: (videoId) =>
        db.read((t) => Option.fromNullable(t.projects.get(videoId))).pipe(withSpan("MemoryVideoStore.getProject")),
      saveCaptionEdits: (videoId, edits) =>
        db.write((t) => ({ ...t, captionEdits: withRow(t.captionEdits, videoId, edits) })).pipe(
          withSpan("MemoryVideoStore.saveCaptionEdits")
        ),
      getCaptionEdits: (videoId) =>
        db.read((t) => Option.fromNullable(t.captionEdits.get(videoId))).pipe(withSpan("MemoryVideoStore.getCaptionEdits")),
      saveFaceAnalysis: (videoId, analysis) =>
        db.write((t) => ({ ...t, faceAnalyses: withRow(t.faceAnalyses, videoId, analysis) })).pipe(
          withSpan("MemoryVideoStore.saveFaceAnalysis")
        ),
      getFaceAnalysis: (videoId) =>
        db.read((t) => Option.fromNullable(t.faceAnalyses.get(videoId))).pipe(withSpan("MemoryVideoStore.getFaceAnalysis"))
    }))
)
