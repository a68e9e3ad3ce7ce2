// The PostgreSQL stores decode every row they read: a row that no adapter could have written (put there by
// hand, say) is a defect that names the table, the row and the field, rather than a record that breaks
// whatever reads it later. Good rows decoding is what the contract suites (test/contract) check.
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { UndecodableRow } from "../../adapters/postgres/pg-rows.ts"
import { NO_EDITS } from "../../domain/caption-edits.ts"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { aCaptionRemoval, anEntry, aVideo, aWorkspace } from "../contract/fixtures.ts"
import { PgTestStores, postgresSkipReason } from "../support/pg-test-db.ts"

/** The defect `read` died of, which must be an undecodable row. */
const undecodable = <A>(read: Effect.Effect<A>) =>
  Effect.flatMap(Effect.exit(read), (exit) => {
    const defect = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
    return defect instanceof UndecodableRow
      ? Effect.succeed(defect)
      : Effect.dieMessage(`expected the read to die of an UndecodableRow; it ended in ${String(exit)}`)
  })

/** The defect's fields, plain (a failed match would print the error, an Effect, to no end). */
const fieldsOf = ({ message, row, table }: UndecodableRow) => ({ table, row, message })

/** Expects `read` to die of row `row` of `table`, with `message`. */
const expectUndecodable = <A>(read: Effect.Effect<A>, table: string, row: string | null, message: string) =>
  Effect.map(undecodable(read), (defect) => expect(fieldsOf(defect)).toEqual({ table, row, message }))

/** Runs `body` with every store, and the SQL client they share, on a database of its own. */
const withStores = <A, E>(body: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof PgTestStores>>>) =>
  Effect.flatMap(Layer.build(PgTestStores()).pipe(Effect.orDie), (stores) => Effect.provide(body, stores))

describe.skipIf(postgresSkipReason !== undefined)("PostgreSQL row decoding", () => {
  it.scopedLive("dies on a caption template whose style is not a caption style", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const templates = yield* TemplateStore
      const workspaceId = randomUUID()
      const id = yield* templates.nextId()
      const template = {
        id,
        workspaceId,
        name: "Mine",
        builtIn: false,
        style: BUILT_IN_TEMPLATES[0]!.style,
        createdAt: "2025-01-02T03:04:05.678Z"
      }
      yield* templates.insert(template)
      expect(yield* templates.get(workspaceId, id)).toEqual(Option.some(template))

      yield* sql`UPDATE caption_templates SET style = jsonb_set(style, '{fontSizeRatio}', '"big"') WHERE id = ${id}`
      const message = `caption_templates row ${id}: style.fontSizeRatio: Expected number, actual "big"`
      yield* expectUndecodable(templates.get(workspaceId, id), "caption_templates", String(id), message)
      yield* expectUndecodable(templates.list(workspaceId), "caption_templates", String(id), message)
    })))

  it.scopedLive("dies on a video whose export, render options or replaced files are not what a video holds", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const videos = yield* VideoStore
      const video = aVideo(randomUUID())
      yield* videos.insert(video)
      expect(yield* videos.getById(video.id)).toEqual(Option.some(video))

      yield* sql`UPDATE videos SET export = '{"status": "done"}' WHERE id = ${video.id}`
      yield* expectUndecodable(
        videos.get(video.workspaceId, video.id),
        "videos",
        video.id,
        `videos row ${video.id}: export.status: Expected "rendering", actual "done" or Expected "completed", actual "done" ` +
          `or Expected "failed", actual "done"`
      )
      yield* expectUndecodable(
        videos.list({ workspaceId: video.workspaceId, limit: 10, cursor: undefined, status: undefined }),
        "videos",
        video.id,
        `videos row ${video.id}: export.status: Expected "rendering", actual "done" or Expected "completed", actual "done" ` +
          `or Expected "failed", actual "done"`
      )

      yield* sql`UPDATE videos SET export = NULL, render_options = '{"frameRate": 24}' WHERE id = ${video.id}`
      yield* expectUndecodable(
        videos.getById(video.id),
        "videos",
        video.id,
        `videos row ${video.id}: render_options.frameRate: Expected 30, actual 24 or Expected 60, actual 24 ` +
          "or Expected undefined, actual 24"
      )

      yield* sql`UPDATE videos SET render_options = NULL, replaced_file_ids = '["a", 2]' WHERE id = ${video.id}`
      yield* expectUndecodable(
        videos.getForUpdate(video.id),
        "videos",
        video.id,
        `videos row ${video.id}: replaced_file_ids.1: Expected string, actual 2`
      )
    })))

  it.scopedLive("dies on a video's words, project, caption edits or face analysis that are not what they should be", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const videos = yield* VideoStore
      const video = aVideo(randomUUID())
      yield* videos.insert(video)
      yield* videos.saveWords(video.id, [{ text: "Hi", start: 0, end: 0.5 }])
      yield* videos.saveCaptionEdits(video.id, { ...NO_EDITS, revision: 1, lineStarts: [0], style: { bold: true } })

      // These reads select no id column: the message names the table alone.
      yield* sql`UPDATE video_words SET words = '[{"text": "Hi", "start": 0}]' WHERE video_id = ${video.id}`
      yield* expectUndecodable(videos.getWords(video.id), "video_words", null, "video_words row: words.0.end: is missing")

      yield* sql`UPDATE video_caption_edits SET line_starts = '[-1]' WHERE video_id = ${video.id}`
      const edits = yield* undecodable(videos.getCaptionEdits(video.id))
      expect(fieldsOf(edits)).toMatchObject({ table: "video_caption_edits", row: null })
      expect(edits.message).toMatch(/^video_caption_edits row: line_starts\.0: .*-1/)

      yield* sql`INSERT INTO video_projects (video_id, project) VALUES (${video.id}, '{"script": "Hi"}')`
      yield* expectUndecodable(videos.getProject(video.id), "video_projects", null, "video_projects row: project.voiceId: is missing")

      yield* sql`INSERT INTO video_face_analyses (video_id, analysis) VALUES (${video.id}, '{"source": {"width": 640, "height": 360, "durationSeconds": 8}}')`
      yield* expectUndecodable(videos.getFaceAnalysis(video.id), "video_face_analyses", null, "video_face_analyses row: analysis.faces: is missing")
    })))

  it.scopedLive("dies on a caption removal whose regions are not text regions", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const removals = yield* CaptionRemovalStore
      const removal = aCaptionRemoval(randomUUID())
      yield* removals.insert(removal)
      expect(yield* removals.getById(removal.id)).toEqual(Option.some(removal))

      yield* sql`UPDATE caption_removals SET regions = '[{"kind": "logo"}]' WHERE id = ${removal.id}`
      yield* expectUndecodable(
        removals.get(removal.workspaceId, removal.id),
        "caption_removals",
        removal.id,
        `caption_removals row ${removal.id}: regions.0.kind: Expected "caption", actual "logo" or Expected "watermark", actual "logo"`
      )
    })))

  it.scopedLive("names the joined table, and its row, whose columns fail in a join", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const workspaces = yield* WorkspaceStore
      const workspace = aWorkspace()
      const hash = `hash-${randomUUID()}`
      yield* workspaces.insert(workspace)
      yield* workspaces.insertToken({
        id: randomUUID(),
        workspaceId: workspace.id,
        hash,
        label: "first",
        createdAt: "2025-01-02T03:04:05.678Z",
        revokedAt: null
      })
      expect(Option.map(yield* workspaces.findTokenWithWorkspace(hash), (found) => found.workspace)).toEqual(Option.some(workspace))

      yield* sql`UPDATE workspaces SET plan = 'gold' WHERE id = ${workspace.id}`
      const joined = yield* undecodable(workspaces.findTokenWithWorkspace(hash))
      expect(fieldsOf(joined)).toMatchObject({ table: "workspaces", row: workspace.id })
      expect(joined.message).toMatch(new RegExp(`^workspaces row ${workspace.id}: workspace_plan: Expected "free", actual "gold" or `))
      const own = yield* undecodable(workspaces.get(workspace.id))
      expect(fieldsOf(own)).toMatchObject({ table: "workspaces", row: workspace.id })
      expect(own.message).toMatch(new RegExp(`^workspaces row ${workspace.id}: plan: Expected "free", actual "gold" or `))
    })))

  it.scopedLive("dies on a ledger amount past a double's exact integers rather than rounding it", () =>
    withStores(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const workspaceId = randomUUID()
      const entry = yield* ledger.post(anEntry(workspaceId, 100))
      expect(yield* ledger.list(workspaceId)).toEqual([entry])

      yield* sql`UPDATE ledger SET amount = 9007199254740993 WHERE id = ${entry.id}`
      yield* expectUndecodable(
        ledger.list(workspaceId),
        "ledger",
        entry.id,
        `ledger row ${entry.id}: amount: Expected an integer in decimal digits`
      )
    })))
})
