// Migration 0013 on a database holding font families saved before the rule: a template's becomes the
// default family, a video's adjustment is dropped; fitting families and the other fields stay as they were.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import captionFontFamilies from "../../adapters/postgres/migrations/0013_caption_font_families.ts"
import { NO_EDITS } from "../../domain/caption-edits.ts"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { PgTestStores, postgresSkipReason } from "../support/pg-test-db.ts"
import { aVideo } from "./fixtures.ts"

const base = BUILT_IN_TEMPLATES[0]!.style
const INJECTED = "Arial\n[Events]\nDialogue: 0,0:00:00.00,0:00:09.00,Caption,,0,0,0,,owned"

describe.skipIf(postgresSkipReason !== undefined)("migration 0013_caption_font_families", () => {
  it.scopedLive("gives unfit saved families the default, drops unfit adjustments, and keeps fitting ones", () =>
    Effect.gen(function*() {
      const stores = yield* Layer.build(PgTestStores())
      yield* Effect.gen(function*() {
        const templates = yield* TemplateStore
        const videos = yield* VideoStore
        const saved = (id: number, fontFamily: string) => ({
          id,
          workspaceId: "ws",
          name: `t${id}`,
          builtIn: false,
          style: { ...base, fontFamily, textColor: "#123456" },
          createdAt: "2025-01-02T03:04:05.678Z"
        })
        yield* templates.insert(saved(1, INJECTED))
        yield* templates.insert(saved(2, "A".repeat(65)))
        yield* templates.insert(saved(3, "Noto Sans CJK JP"))
        const [unfit, fitting] = [aVideo("ws"), aVideo("ws")]
        yield* videos.insert(unfit)
        yield* videos.insert(fitting)
        yield* videos.saveCaptionEdits(unfit.id, { ...NO_EDITS, revision: 2, lineStarts: [0], style: { fontFamily: "Arial,Bold", position: "top" } })
        yield* videos.saveCaptionEdits(fitting.id, { ...NO_EDITS, revision: 1, style: { fontFamily: "Open Sans" } })

        yield* captionFontFamilies

        const families = (yield* templates.list("ws")).map((t) => [t.id, t.style.fontFamily, t.style.textColor])
        expect(families.sort()).toEqual([[1, "DejaVu Sans", "#123456"], [2, "DejaVu Sans", "#123456"], [3, "Noto Sans CJK JP", "#123456"]])
        expect(Option.getOrThrow(yield* videos.getCaptionEdits(unfit.id))).toEqual({ ...NO_EDITS, revision: 2, lineStarts: [0], style: { position: "top" } })
        expect(Option.getOrThrow(yield* videos.getCaptionEdits(fitting.id)).style).toEqual({ fontFamily: "Open Sans" })
      }).pipe(Effect.provide(stores))
    }))
})
