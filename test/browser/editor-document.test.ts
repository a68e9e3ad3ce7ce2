// The editor's pure parts, in Node: its edits as documents (text fixes that split or delete words,
// timeline bounds, line splits and merges, style adjustments, template swaps, the hook and the platform,
// a word's emphasis and the emphasis mode),
// undo and redo, the autosave's one-save-at-a-time queue, and the page's embedded state that no text can
// break out of.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { autosave, type SaveState } from "../../adapters/editor/browser/autosave.ts"
import { record, redo, startHistory, undo } from "../../adapters/editor/browser/edit-history.ts"
import {
  adjustStyle,
  canMergeAfter,
  canSplitBefore,
  dragBounds,
  type EditorDocument,
  MIN_WORD_SECONDS,
  mergeLineAfter,
  renderDocument,
  sameEmphasis,
  setEmphasisMode,
  pastCut,
  restoreCut,
  setHook,
  setPlatform,
  setWordText,
  splitLineBefore,
  swapTemplate,
  toggleEmphasis,
  wordAt
} from "../../adapters/editor/browser/editor-document.ts"
import type { EditorBootstrap } from "../../adapters/editor/editor-contract.ts"
import { EDITOR_CSP, editorPageHtml } from "../../adapters/editor/editor-page-html.ts"
import { assSubtitles } from "../../adapters/media/ass-subtitles.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf, type TimedWord } from "../../domain/captions.ts"

const BOLD_POP = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const BOXED = BUILT_IN_TEMPLATES.find((t) => t.id === -4)!.style
const words = (...texts: ReadonlyArray<string>): ReadonlyArray<TimedWord> => texts.map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4 }))
const doc = (overrides: Partial<EditorDocument> = {}): EditorDocument => ({
  words: words("one", "two", "three", "four"),
  lineStarts: null,
  templateId: -1,
  adjustments: {},
  hook: null,
  platform: "none",
  emphasis: "off",
  cuts: [],
  framing: null,
  ...overrides
})
const FRAME = { kind: "caption", width: 360, height: 640 }

describe("editor documents", () => {
  it("restores a cut, and plays past the cut it is inside", () => {
    const cuts = [{ start: 0, end: 0.3, reason: "silence" as const }, { start: 1.2, end: 1.6, reason: "filler" as const }]
    const trimmed = doc({ cuts })
    expect(restoreCut(trimmed, 1).cuts).toEqual([cuts[0]])
    expect(restoreCut(trimmed, 5)).toBe(trimmed)
    expect(pastCut(cuts, 0.1)).toBe(0.3)
    expect(pastCut(cuts, 1.2)).toBe(1.6)
    expect(pastCut(cuts, 1.6)).toBe(1.6)
    expect(pastCut(cuts, 0.9)).toBe(0.9)
  })

  it("renders the script the export burns", () => {
    const d = doc({ adjustments: { position: "top" } })
    const style = { ...BOLD_POP, position: "top" as const }
    expect(renderDocument(d, BOLD_POP, FRAME).ass).toBe(
      assSubtitles({ pages: layoutCaptions(d.words, layoutRulesOf(style)), style, width: 360, height: 640, format: "standard" })
    )
  })

  it("splits a word typed with spaces, deletes a blank one, and keeps line starts on their words", () => {
    const d = doc({ lineStarts: [0, 2] })
    const split = setWordText(d, 0, "won ton")
    expect(split.words.map((w) => w.text)).toEqual(["won", "ton", "two", "three", "four"])
    expect(split.words[1]!.end).toBe(d.words[0]!.end)
    expect(split.lineStarts).toEqual([0, 3])
    const deleted = setWordText(d, 2, "  ")
    expect(deleted.words.map((w) => w.text)).toEqual(["one", "two", "four"])
    expect(deleted.lineStarts).toEqual([0, 2])
    expect(setWordText(d, 1, " two ")).toBe(d)
  })

  it("drops the recogniser's confidence from a word a person retypes, and keeps the others'", () => {
    const d = doc({ words: [{ text: "hear", start: 0, end: 0.4, confidence: 0.2 }, { text: "sure", start: 0.5, end: 0.9, confidence: 0.3 }] })
    const fixed = setWordText(d, 0, "here")
    expect(fixed.words).toEqual([{ text: "here", start: 0, end: 0.4 }, { text: "sure", start: 0.5, end: 0.9, confidence: 0.3 }])
  })

  it("keeps a dragged edge off the neighbours and the word no shorter than the minimum", () => {
    const ws = words("a", "b", "c")
    const bounds = dragBounds(ws, 1, 10)
    expect(bounds.start).toEqual([ws[0]!.end, ws[1]!.end - MIN_WORD_SECONDS])
    expect(bounds.end).toEqual([ws[1]!.start + MIN_WORD_SECONDS, ws[2]!.start])
    // The last word stops at the video's end, unless the recogniser already put it past that.
    expect(dragBounds(ws, 2, 2).end[1]).toBe(2)
    expect(dragBounds(ws, 2, 1.2).end[1]).toBe(ws[2]!.end)
  })

  it("splits a line before a word and merges it back, from the automatic layout", () => {
    const d = doc()
    const pages = layoutCaptions(d.words, layoutRulesOf(BOLD_POP))
    expect(canSplitBefore([0], 0)).toBe(false)
    const split = splitLineBefore(d, pages, 2)
    expect(split.lineStarts).toEqual([0, 2])
    expect(canMergeAfter(split.lineStarts!, 3)).toBe(false)
    expect(mergeLineAfter(split, pages, 1).lineStarts).toEqual([0])
  })

  it("keeps only real adjustments, drops the margin with a new position, and keeps placement across a template swap", () => {
    const d = adjustStyle(doc(), BOLD_POP, { position: "top", marginRatio: 0.2, bold: false })
    expect(d.adjustments).toEqual({ position: "top", marginRatio: 0.2, bold: false })
    expect(adjustStyle(d, BOLD_POP, { position: "bottom" }).adjustments).toEqual({ position: "bottom", bold: false })
    expect(adjustStyle(d, BOLD_POP, { bold: true }).adjustments).toEqual({ position: "top", marginRatio: 0.2 })
    expect(adjustStyle(d, BOLD_POP, { textColor: "#FFFFFF" }).adjustments).toEqual(d.adjustments)
    expect(swapTemplate(d, -4, BOXED)).toMatchObject({ templateId: -4, adjustments: { position: "top", marginRatio: 0.2 } })
  })

  it("sets the hook as typed (blank removes it) and the platform, each an edit undo and redo take back", () => {
    const d0 = doc()
    const d1 = setHook(d0, "  Three harbour secrets ", 12)
    expect(d1.hook).toEqual({ text: "Three harbour secrets", seconds: 10 })
    expect(setHook(d1, "Three harbour secrets", 10)).toBe(d1)
    expect(setHook(d1, "Three harbour secrets", Number.NaN).hook).toEqual({ text: "Three harbour secrets", seconds: 3 })
    expect(setHook(d0, "x".repeat(120), 2).hook?.text).toHaveLength(100)
    expect(setHook(d1, "   ", 4).hook).toBeNull()
    const d2 = setPlatform(d1, "tiktok")
    expect(d2).toMatchObject({ hook: d1.hook, platform: "tiktok" })
    expect(setPlatform(d2, "tiktok")).toBe(d2)
    let h = record(record(startHistory(d0), d1), d2)
    h = undo(h)
    expect(h.present).toMatchObject({ hook: d1.hook, platform: "none" })
    h = undo(h)
    expect(h.present).toMatchObject({ hook: null, platform: "none" })
    h = redo(redo(h))
    expect(h.present).toBe(d2)
  })

  it("renders the hook and keeps clear of the platform's overlays as the export does, and says which zone the block was placed in", () => {
    const hook = { text: "Three harbour secrets", seconds: 2.5 }
    const d = doc({ adjustments: { position: "bottom" }, hook, platform: "tiktok" })
    const style = { ...BOLD_POP, position: "bottom" as const }
    const pages = layoutCaptions(d.words, layoutRulesOf(style))
    const rendering = renderDocument(d, BOLD_POP, FRAME)
    expect(rendering.ass).toBe(assSubtitles({ pages, style, width: 360, height: 640, format: "standard", hook, platform: "tiktok" }))
    expect(rendering.ass).toMatch(/^Style: Hook,/m)
    expect(rendering.ass).toMatch(/^Dialogue: 2,0:00:00\.00,0:00:02\.50,Hook,.*THREE HARBOUR SECRETS$/m)
    // The platform's margins: the bottom block sits above TikTok's description (24% of 640, and a gap), not at its 8%.
    const marginV = (ass: string) => Number(/^Style: Caption,.*,(\d+),1$/m.exec(ass)?.[1])
    expect(marginV(renderDocument(setPlatform(d, "none"), BOLD_POP, FRAME).ass)).toBe(Math.round(0.08 * 640))
    expect(marginV(rendering.ass)).toBe(Math.round((0.24 + 0.015) * 640))
    // Placed at 8% from the bottom, the block is in TikTok's description; at the top, in no zone.
    expect(rendering.entered.map((zone) => zone.label)).toEqual(["account name, description and sound"])
    expect(renderDocument({ ...d, adjustments: { position: "top" } }, BOLD_POP, FRAME).entered).toEqual([])
    expect(renderDocument(d, BOLD_POP, { ...FRAME, width: 640, height: 360 }).entered).toEqual([])
  })

  it("toggles a word's emphasis as an edit undo and redo take back, and draws it in the emphasis colour and size", () => {
    const d0 = doc({ adjustments: { emphasisColor: "#FF3D00" } })
    const d1 = toggleEmphasis(d0, 2)
    expect(d1.words.map((w) => w.emphasis === true)).toEqual([false, false, true, false])
    expect(d1.words[1]).toBe(d0.words[1])
    expect(toggleEmphasis(d0, 9)).toBe(d0)
    // Toggled off, the flag is left out, as the server keeps a word without emphasis.
    const d2 = toggleEmphasis(d1, 2)
    expect(d2.words).toEqual(d0.words)
    expect(d2.words[2]).not.toHaveProperty("emphasis")
    let h = record(record(startHistory(d0), d1), d2)
    h = undo(h)
    expect(h.present).toBe(d1)
    h = undo(h)
    expect(h.present).toBe(d0)
    h = redo(h)
    expect(h.present.words[2]!.emphasis).toBe(true)

    // The preview's script (the export's): the word's text right after the emphasis colour (ASS writes BGR) and size.
    const ass = renderDocument(d1, BOLD_POP, FRAME).ass
    expect(ass).toMatch(/\{\\c&H003DFF&\\fscx120\\fscy120\}THREE\{/)
    expect(ass).toBe(assSubtitles({ pages: layoutCaptions(d1.words, layoutRulesOf(BOLD_POP)), style: { ...BOLD_POP, emphasisColor: "#FF3D00" }, width: 360, height: 640, format: "standard" }))
    expect(renderDocument(d0, BOLD_POP, FRAME).ass).not.toContain("&H003DFF&")
  })

  it("keeps a fixed word's emphasis, and clears every flag when the mode is set to off", () => {
    const d = toggleEmphasis(doc(), 1)
    expect(setWordText(d, 1, "too").words[1]).toEqual({ text: "too", start: 0.5, end: 0.9, emphasis: true })
    const auto = setEmphasisMode(d, "auto")
    // Auto leaves the flags to the server, which chooses them when the mode is saved.
    expect(auto).toMatchObject({ emphasis: "auto", words: d.words })
    expect(setEmphasisMode(auto, "auto")).toBe(auto)
    const off = setEmphasisMode(toggleEmphasis(auto, 3), "off")
    expect(off.emphasis).toBe("off")
    expect(off.words.some((w) => "emphasis" in w)).toBe(false)
    expect(sameEmphasis(off.words, doc().words)).toBe(true)
    expect(sameEmphasis(d.words, doc().words)).toBe(false)
  })

  it("finds the word spoken at a time", () => {
    const ws = words("a", "b")
    expect([wordAt(ws, 0.1), wordAt(ws, 0.45), wordAt(ws, 0.6), wordAt(ws, 2)]).toEqual([0, null, 1, null])
  })
})

describe("edit history", () => {
  it("undoes and redoes, and a new edit forgets what was undone", () => {
    let h = record(record(startHistory("a"), "b"), "c")
    h = undo(undo(h))
    expect(h.present).toBe("a")
    h = redo(h)
    expect(h.present).toBe("b")
    h = record(h, "d")
    expect([h.past, h.present, h.future]).toEqual([["a", "b"], "d", []])
    expect(undo(startHistory("x"))).toEqual(startHistory("x"))
  })
})

describe("autosave", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("saves the latest document once changes stop, one save at a time, and keeps a failed one for the next flush", async () => {
    const saves: Array<string> = []
    const states: Array<SaveState["_tag"]> = []
    let release: () => void = () => undefined
    let fail = false
    const saver = autosave<string>({
      delayMs: 600,
      save: (d) => {
        saves.push(d)
        if (fail) return Promise.reject(new Error("offline"))
        return new Promise<void>((resolve) => {
          release = resolve
        })
      },
      onState: (s) => states.push(s._tag)
    })
    saver.schedule("a")
    saver.schedule("b")
    await vi.advanceTimersByTimeAsync(600)
    expect(saves).toEqual(["b"])
    saver.schedule("c")
    await vi.advanceTimersByTimeAsync(600)
    expect(saves).toEqual(["b"])
    release()
    await vi.advanceTimersByTimeAsync(0)
    expect(saves).toEqual(["b", "c"])
    release()
    await vi.advanceTimersByTimeAsync(0)
    expect(saver.dirty()).toBe(false)
    expect(states.at(-1)).toBe("saved")

    fail = true
    saver.schedule("d")
    await expect(saver.flush()).rejects.toThrow("offline")
    expect(states.at(-1)).toBe("failed")
    expect(saver.dirty()).toBe(true)
    fail = false
    const retried = saver.flush()
    release()
    await retried
    expect(saves).toEqual(["b", "c", "d", "d"])
    expect(saver.dirty()).toBe(false)
  })
})

describe("editor page", () => {
  it("embeds the state as JSON no word can break out of, and runs no inline script", () => {
    const hostile = "</script><script>alert(1)</script>"
    const bootstrap = {
      video: { id: "vid_1", kind: "caption", status: "completed", step: "completed", width: 360, height: 640, duration: 3, sourceUrl: "/media/x/source.mp4", picture: "ready" },
      captions: { videoId: "vid_1", templateId: -1, revision: 0, words: [{ text: hostile, start: 0, end: 1 }], lineStarts: null, adjustments: {}, style: BOLD_POP, hook: { text: hostile, seconds: 3 }, platform: "tiktok", emphasis: "off", trim: null, cuts: [], pages: [], framing: null },
      base: "/editor/tok",
      csrf: "csrf",
      templates: [],
      canExport: true,
      preview: { module: "/editor-assets/caption-preview.js", workerUrl: "/w.js", wasmUrl: "/a.wasm", modernWasmUrl: "/b.wasm", fonts: { "DejaVu Sans": ["/f.ttf"] }, cjkFallback: { family: "Droid Sans Fallback", url: "/c.ttf" }, defaultFont: "DejaVu Sans" },
      clips: [{ startSeconds: 0, endSeconds: 30, score: 80, firstLine: hostile, current: true }]
    } satisfies EditorBootstrap
    const page = editorPageHtml(bootstrap, "/editor-assets/editor-app.js")
    expect(page).not.toContain(hostile)
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.map(([, attributes]) => attributes)).toEqual([" type=\"application/json\" id=\"editor-bootstrap\"", " type=\"module\" src=\"/editor-assets/editor-app.js\""])
    expect(JSON.parse(scripts[0]![2]!)).toEqual(bootstrap)
    expect(scripts[1]![2]).toBe("")
    expect(EDITOR_CSP).toContain("script-src 'self' 'wasm-unsafe-eval';")
  })
})
