// The web editor behind every editorUrl. It starts from the project's state embedded in the page,
// keeps what a person edits as immutable documents (undo is the previous one), draws every change
// at once with the export's own layout and ASS script through the JASSUB preview, saves a moment
// after the last change, and exports through the render operation, showing its progress and mp4.
import { Either } from "effect"
import { checkWords, type StyleAdjustments } from "../../../domain/caption-edits.ts"
import type { EmphasisMode } from "../../../domain/caption-emphasis.ts"
import { CAPTION_FONT_FAMILIES } from "../../../domain/caption-fonts.ts"
import { HOOK_DEFAULT_SECONDS } from "../../../domain/caption-hook.ts"
import { type CaptionAnimation, type CaptionStyle, isOneEmoji, lineEmoji, placementOf } from "../../../domain/captions.ts"
import { type Platform, PLATFORM_NAMES, type SafeZone, zonesOver } from "../../../domain/safe-zones.ts"
import type { Cut } from "../../../domain/trim.ts"
import type { EditorBootstrap, EditorCaptions, EditorTemplate, EditorVideo } from "../editor-contract.ts"
import { autosave, type SaveState } from "./autosave.ts"
import { captionMeasure } from "./caption-measure.ts"
import type { CaptionPreview, PreviewBox } from "./caption-preview.ts"
import type { Framing } from "../../../domain/reframe.ts"
import { showClipList } from "./clip-list.ts"
import { cropWindows } from "./crop-windows.ts"
import { outputView } from "./output-view.ts"
import { byId, clockText, element, messageOf } from "./dom.ts"
import { record, redo, replacePresent, startHistory, undo } from "./edit-history.ts"
import { EditorApiError, editorApi } from "./editor-api.ts"
import {
  adjustStyle,
  canMergeAfter,
  canSplitBefore,
  type EditorDocument,
  lineHolding,
  lineStartsIn,
  mergeLineAfter,
  pastCut,
  removeWord,
  restoreCut,
  renderDocument,
  retimeWord,
  sameEmphasis,
  setEmphasisMode,
  setHook,
  setLineEmoji,
  setPlatform,
  setWordText,
  splitLineBefore,
  swapTemplate,
  toggleEmphasis,
  withEmphasis,
  wordAt
} from "./editor-document.ts"
import { timelineView } from "./timeline-view.ts"
import { transcriptView } from "./transcript-view.ts"

/** How long the editor waits after the last change before saving. */
const AUTOSAVE_DELAY_MS = 600
const POLL_INTERVAL_MS = 1000

const documentOf = (captions: EditorCaptions): EditorDocument => ({
  words: captions.words,
  lineStarts: captions.lineStarts,
  templateId: captions.templateId,
  adjustments: captions.adjustments,
  hook: captions.hook,
  platform: captions.platform,
  emphasis: captions.emphasis,
  cuts: captions.cuts,
  framing: captions.framing
})

const sameCuts = (a: ReadonlyArray<Cut>, b: ReadonlyArray<Cut>): boolean => JSON.stringify(a) === JSON.stringify(b)
const samePaths = (a: Framing | null, b: Framing | null): boolean => JSON.stringify(a?.paths) === JSON.stringify(b?.paths)

const CUT_REASONS: Readonly<Record<Cut["reason"], string>> = { silence: "pause", filler: "filler", repeat: "repeated word" }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const ui = {
  player: byId("player", HTMLDivElement),
  cropLayer: byId("crop-layer", HTMLDivElement),
  outputCanvas: byId("output-view", HTMLCanvasElement),
  viewOutput: byId("view-output", HTMLButtonElement),
  video: byId("player-video", HTMLVideoElement),
  safeZones: byId("safe-zones", HTMLDivElement),
  emojiLayer: byId("emoji-layer", HTMLDivElement),
  play: byId("play", HTMLButtonElement),
  clock: byId("clock", HTMLSpanElement),
  undo: byId("undo", HTMLButtonElement),
  redo: byId("redo", HTMLButtonElement),
  saveState: byId("save-state", HTMLDivElement),
  notice: byId("notice", HTMLDivElement),
  noticeText: byId("notice-text", HTMLSpanElement),
  noticeClose: byId("notice-close", HTMLButtonElement),
  offer: byId("offer", HTMLDivElement),
  offerText: byId("offer-text", HTMLSpanElement),
  offerAccept: byId("offer-accept", HTMLButtonElement),
  offerClose: byId("offer-close", HTMLButtonElement),
  wordTools: byId("word-tools", HTMLFieldSetElement),
  wordStart: byId("word-start", HTMLInputElement),
  wordEnd: byId("word-end", HTMLInputElement),
  splitLine: byId("split-line", HTMLButtonElement),
  mergeLine: byId("merge-line", HTMLButtonElement),
  deleteWord: byId("delete-word", HTMLButtonElement),
  toggleEmphasis: byId("toggle-emphasis", HTMLButtonElement),
  lineEmoji: byId("line-emoji", HTMLInputElement),
  removeEmoji: byId("remove-emoji", HTMLButtonElement),
  wordError: byId("word-error", HTMLParagraphElement),
  transcript: byId("transcript", HTMLDivElement),
  styleTools: byId("style-tools", HTMLFieldSetElement),
  template: byId("template", HTMLSelectElement),
  position: byId("position", HTMLSelectElement),
  margin: byId("margin", HTMLInputElement),
  marginValue: byId("margin-value", HTMLOutputElement),
  font: byId("font", HTMLSelectElement),
  fontSize: byId("font-size", HTMLInputElement),
  fontSizeValue: byId("font-size-value", HTMLOutputElement),
  textColor: byId("text-color", HTMLInputElement),
  highlightColor: byId("highlight-color", HTMLInputElement),
  outlineColor: byId("outline-color", HTMLInputElement),
  highlight: byId("highlight", HTMLSelectElement),
  animation: byId("animation", HTMLSelectElement),
  uppercase: byId("uppercase", HTMLInputElement),
  bold: byId("bold", HTMLInputElement),
  emphasis: byId("emphasis", HTMLSelectElement),
  hookText: byId("hook-text", HTMLInputElement),
  hookSeconds: byId("hook-seconds", HTMLInputElement),
  platform: byId("platform", HTMLSelectElement),
  zoneWarning: byId("zone-warning", HTMLParagraphElement),
  templateName: byId("template-name", HTMLInputElement),
  saveTemplate: byId("save-template", HTMLButtonElement),
  templateError: byId("template-error", HTMLParagraphElement),
  exportFormat: byId("export-format", HTMLSelectElement),
  exportFps: byId("export-fps", HTMLSelectElement),
  exportButton: byId("export", HTMLButtonElement),
  exportReason: byId("export-reason", HTMLParagraphElement),
  exportStatus: byId("export-status", HTMLDivElement),
  exportProgress: byId("export-progress", HTMLProgressElement),
  exportPercent: byId("export-percent", HTMLSpanElement),
  exportError: byId("export-error", HTMLParagraphElement),
  exportResult: byId("export-result", HTMLDivElement),
  timeline: byId("timeline", HTMLDivElement),
  track: byId("timeline-track", HTMLDivElement),
  playhead: byId("playhead", HTMLDivElement),
  zoom: byId("zoom", HTMLInputElement),
  cuts: byId("cuts", HTMLElement),
  cutList: byId("cut-list", HTMLOListElement),
  clips: byId("clips", HTMLElement),
  clipList: byId("clip-list", HTMLOListElement)
}

const bootstrap = JSON.parse(byId("editor-bootstrap", HTMLScriptElement).textContent ?? "") as EditorBootstrap
const api = editorApi(bootstrap.base, bootstrap.csrf)
const shape = { kind: bootstrap.video.kind, width: bootstrap.video.width, height: bootstrap.video.height }

let video: EditorVideo = bootstrap.video
let templates: ReadonlyArray<EditorTemplate> = bootstrap.templates
/** The revision of the last save the server acknowledged: the next save is made on it. */
let revision = bootstrap.captions.revision
/** The emphasis mode the server holds: a save sends the document's only when it differs (see `save`). */
let savedEmphasis: EmphasisMode = bootstrap.captions.emphasis
/** The cuts the server holds: a save sends the document's only when a person changed them (a generated video has none to send). */
let savedCuts: ReadonlyArray<Cut> = bootstrap.captions.cuts
/** The windows' paths the server holds: a save sends the document's only when a person moved a window. */
let savedFraming: Framing | null = bootstrap.captions.framing
/** The document whose Auto choice the server is yet to make: its save asks for it, and the answer's words fill it in. */
let choosing: EditorDocument | null = null
let history = startHistory(documentOf(bootstrap.captions))
let selected: number | null = null
let editing = false
let saveState: SaveState = { _tag: "saved" }
let exportStarting = false

const templateStyle = (id: number): CaptionStyle => templates.find((t) => t.id === id)?.style ?? bootstrap.captions.style
// Measured with the export's fonts, once they load: then the preview is drawn again with the emoji's room.
const measure = captionMeasure(bootstrap.preview.fonts, () => {
  rendering = render(history.present)
  showTrack(rendering.ass)
  showEmoji()
})
const render = (doc: EditorDocument) => renderDocument(doc, templateStyle(doc.templateId), shape, measure)
let rendering = render(history.present)

/** While the video renders (its first render, or an export) the server refuses edits. */
const busy = () => video.status === "processing" || video.export?.status === "rendering"

const showNotice = (text: string) => {
  ui.noticeText.textContent = text
  ui.notice.hidden = false
}
ui.noticeClose.addEventListener("click", () => {
  ui.notice.hidden = true
})

// --- A word the person fixed is offered for the workspace's vocabulary, so later videos get it right.

let offeredTerm: string | null = null

/** The fixed word without the punctuation around it; null when it is too short or no word to keep. */
const termOf = (text: string): string | null => {
  const term = text.trim().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
  return term.length >= 3 && !/\s/.test(term) && /\p{L}/u.test(term) ? term : null
}

const offerVocabulary = (term: string) => {
  offeredTerm = term
  ui.offerText.textContent = `Add “${term}” to the workspace's vocabulary, so videos captioned later get it right?`
  ui.offerAccept.hidden = false
  ui.offer.hidden = false
}
ui.offerClose.addEventListener("click", () => {
  ui.offer.hidden = true
})
ui.offerAccept.addEventListener("click", () => {
  const term = offeredTerm
  if (term === null) return
  ui.offerAccept.hidden = true
  api.addToVocabulary({ term }).then(
    () => {
      ui.offerText.textContent = `“${term}” is in the vocabulary.`
    },
    (error: unknown) => {
      ui.offer.hidden = true
      showNotice(error instanceof Error ? error.message : String(error))
    }
  )
})

// --- Preview: the newest script wins; scripts made while one is being drawn are skipped over.

let preview: CaptionPreview | null = null
let pendingTrack: string | null = null
let sendingTracks = false
let drawn = 0

const sendTracks = async () => {
  sendingTracks = true
  try {
    while (preview !== null && pendingTrack !== null) {
      const ass = pendingTrack
      pendingTrack = null
      await preview.setTrack(ass)
      ui.player.dataset.drawn = String(++drawn)
    }
  } catch (error) {
    showNotice(`The caption preview failed: ${messageOf(error)}`)
  } finally {
    sendingTracks = false
  }
}

const showTrack = (ass: string) => {
  pendingTrack = ass
  if (preview !== null && !sendingTracks) void sendTracks()
}

const startPreview = async () => {
  try {
    const module = await import(bootstrap.preview.module) as typeof import("./caption-preview.ts")
    preview = await module.createCaptionPreview({ video: ui.video, assets: bootstrap.preview, ass: rendering.ass })
    ui.player.dataset.preview = "ready"
    showTrack(rendering.ass)
  } catch (error) {
    ui.player.dataset.preview = "failed"
    showNotice(`The caption preview could not start: ${messageOf(error)}`)
  }
}

// --- Saving

const describeSaveState = (): string => {
  switch (saveState._tag) {
    case "pending":
    case "saving":
      return "Saving…"
    case "failed":
      return `Not saved: ${saveState.message}`
    case "saved":
      return busy() ? "Saved · editing is paused while the video renders" : "All changes saved"
  }
}

const showSaveState = () => {
  ui.saveState.textContent = describeSaveState()
  ui.saveState.dataset.state = saveState._tag
}

/** Takes the server's state as it is, dropping the history (its documents were made on older captions). */
const adoptState = async (why: string) => {
  const state = await api.state()
  video = state.video
  revision = state.captions.revision
  savedEmphasis = state.captions.emphasis
  savedCuts = state.captions.cuts
  savedFraming = state.captions.framing
  choosing = null
  history = startHistory(documentOf(state.captions))
  selected = null
  editing = false
  saver.discard()
  showNotice(`${why} The captions were loaded again as they are saved now.`)
  refresh()
  syncExport()
  if (busy()) void watchRender()
}

const saver = autosave<EditorDocument>({
  delayMs: AUTOSAVE_DELAY_MS,
  save: async (doc) => {
    try {
      // The mode goes only with a choice to make or when it changed: with every save, auto would choose
      // over the flags a person set since, and off would clear them.
      const { cuts, emphasis, framing, ...edit } = doc
      const fresh = doc === choosing
      const sendMode = fresh || emphasis !== savedEmphasis
      const sendCuts = !sameCuts(cuts, savedCuts)
      const sendPaths = framing !== null && !samePaths(framing, savedFraming)
      let saved = await api.saveCaptions({
        ...edit,
        revision,
        ...(sendMode ? { emphasis } : {}),
        ...(sendCuts ? { cuts } : {}),
        ...(sendPaths ? { framing: { paths: framing.paths } } : {})
      })
      revision = saved.revision
      savedEmphasis = saved.emphasis
      savedCuts = saved.cuts
      savedFraming = saved.framing
      // Saving the mode set the flags the server's way (auto chose, off cleared). A document that holds others
      // (one undone or redone to, or a word toggled before the save) sends its own again.
      if (sendMode && !fresh && saved.words.length === doc.words.length && !sameEmphasis(saved.words, doc.words)) {
        saved = await api.saveCaptions({ words: saved.words.map((w, i) => withEmphasis(w, doc.words[i]!.emphasis === true)), revision })
        revision = saved.revision
      }
      // Retyped words come back timed from the audio, and an Auto choice with its words: shown at once
      // unless the person edited on since (an edit made while the choice was on its way asks for it again).
      const retimed = saved.words.length === doc.words.length && saved.words.some((w, i) => w.start !== doc.words[i]!.start || w.end !== doc.words[i]!.end)
      if ((retimed || fresh) && history.present === doc) {
        history = replacePresent(history, { ...doc, words: saved.words })
        if (fresh) choosing = null
        refresh()
      }
    } catch (error) {
      // Someone saved meanwhile (another tab, a script through the API), or an export started.
      if (error instanceof EditorApiError && error.status === 409) return adoptState(error.message)
      throw error
    }
  },
  onState: (state) => {
    saveState = state
    showSaveState()
  }
})

// --- Edits

/** A new document: drawn at once, kept for undo, saved shortly. */
const commit = (next: EditorDocument) => {
  if (next === history.present || busy()) return
  step(next)
  refresh()
  saver.schedule(next)
}

/** Keeps `next` for undo; an Auto choice still to come is asked for its words instead (the server's answer would not fit them). */
const step = (next: EditorDocument) => {
  if (choosing === history.present && next.emphasis === "auto") choosing = next
  history = record(history, next)
}

/** A document shown in the preview only, while a drag or a slider is still moving. */
const previewOnly = (doc: EditorDocument) => {
  const shown = render(doc)
  showTrack(shown.ass)
  warnOfZones(doc.platform, shown.entered)
}

const travel = (step: typeof undo) => {
  if (busy()) return
  const next = step(history)
  if (next === history) return
  history = next
  editing = false
  refresh()
  saver.schedule(history.present)
}

/** Applies the text typed into the word being edited; answers how many words it added (or -1 for a deletion). */
const applyText = (text: string | null): number => {
  editing = false
  if (text === null || selected === null || busy()) return 0
  const doc = history.present
  const next = setWordText(doc, selected, text)
  if (next !== doc) {
    step(next)
    saver.schedule(next)
    const term = termOf(text)
    if (term !== null && next.words.length === doc.words.length) offerVocabulary(term)
  }
  return next.words.length - doc.words.length
}

const editedText = (): string | null => {
  const input = document.getElementById("word-text")
  return input instanceof HTMLInputElement ? input.value : null
}

const seek = (seconds: number) => {
  ui.video.currentTime = seconds
  tick()
}

/** Selects a word (seeking to it while paused), opening its text for editing when `edit`. */
const selectWord = (index: number, edit: boolean) => {
  const from = selected
  const shift = editing ? applyText(editedText()) : 0
  selected = from !== null && index > from ? index + shift : index
  editing = edit && !busy()
  ui.wordError.textContent = ""
  refresh()
  const word = history.present.words[selected]
  if (word !== undefined && ui.video.paused) seek(word.start)
}

const finishEditing = (text: string | null, move: -1 | 0 | 1) => {
  if (!editing || selected === null) return
  const shift = applyText(text)
  const next = move === 1 ? selected + 1 + shift : selected + move
  if (move !== 0 && next >= 0 && next < history.present.words.length) {
    selected = next
    editing = true
  }
  refresh()
}

const transcript = transcriptView(ui.transcript, { select: (index) => selectWord(index, true), seek, finish: finishEditing })

const timeline = timelineView(
  { scroller: ui.timeline, track: ui.track, playhead: ui.playhead, zoom: ui.zoom },
  video.duration,
  {
    editable: () => !busy(),
    select: (index) => {
      if (index !== selected || editing) selectWord(index, false)
    },
    seek,
    retime: (index, times, done) => {
      const next = retimeWord(history.present, index, times)
      if (done) commit(next)
      else {
        previewOnly(next)
        if (index === selected) showTimes(times)
      }
    }
  }
)

const showTimes = (times: { readonly start: number; readonly end: number } | undefined) => {
  ui.wordStart.value = times === undefined ? "" : times.start.toFixed(2)
  ui.wordEnd.value = times === undefined ? "" : times.end.toFixed(2)
}

const retypeTimes = () => {
  if (selected === null) return
  const next = retimeWord(history.present, selected, { start: ui.wordStart.valueAsNumber, end: ui.wordEnd.valueAsNumber })
  const checked = checkWords(next.words, video.duration)
  if (Either.isLeft(checked)) {
    ui.wordError.textContent = checked.left.message
    showTimes(history.present.words[selected])
    return
  }
  ui.wordError.textContent = ""
  commit(next)
}
ui.wordStart.addEventListener("change", retypeTimes)
ui.wordEnd.addEventListener("change", retypeTimes)

ui.splitLine.addEventListener("click", () => {
  if (selected !== null) commit(splitLineBefore(history.present, rendering.pages, selected))
})
ui.mergeLine.addEventListener("click", () => {
  if (selected !== null) commit(mergeLineAfter(history.present, rendering.pages, selected))
})
ui.deleteWord.addEventListener("click", () => {
  if (selected === null) return
  editing = false
  commit(removeWord(history.present, selected))
})
const toggleSelected = () => {
  if (selected !== null) commit(toggleEmphasis(history.present, selected))
}
ui.toggleEmphasis.addEventListener("click", toggleSelected)
ui.lineEmoji.addEventListener("change", () => {
  if (selected === null) return
  const typed = ui.lineEmoji.value.trim()
  if (typed !== "" && !isOneEmoji(typed)) {
    ui.wordError.textContent = "Type or paste one emoji, e.g. 🔥 (or clear the box for none)."
    return
  }
  ui.wordError.textContent = ""
  commit(setLineEmoji(history.present, rendering.pages, selected, typed === "" ? null : typed))
})
ui.removeEmoji.addEventListener("click", () => {
  if (selected !== null) commit(setLineEmoji(history.present, rendering.pages, selected, null))
})
ui.undo.addEventListener("click", () => travel(undo))
ui.redo.addEventListener("click", () => travel(redo))

// --- Style

const adjust = (changes: StyleAdjustments, done: boolean) => {
  const doc = history.present
  const next = adjustStyle(doc, templateStyle(doc.templateId), changes)
  if (done) commit(next)
  else previewOnly(next)
}

const percent = (ratio: number, digits: number) => `${(ratio * 100).toFixed(digits)}%`

/** A slider previews while it moves and makes one undo step when let go. */
const slider = (input: HTMLInputElement, output: HTMLOutputElement, digits: number, changes: (value: number) => StyleAdjustments) => {
  input.addEventListener("input", () => {
    output.value = percent(input.valueAsNumber, digits)
    adjust(changes(input.valueAsNumber), false)
  })
  input.addEventListener("change", () => adjust(changes(input.valueAsNumber), true))
}
slider(ui.margin, ui.marginValue, 1, (marginRatio) => ({ marginRatio }))
slider(ui.fontSize, ui.fontSizeValue, 1, (fontSizeRatio) => ({ fontSizeRatio }))

const colour = (input: HTMLInputElement, field: "textColor" | "highlightColor" | "outlineColor") => {
  // Templates write colours in capitals: the same colour must compare equal to drop the adjustment.
  input.addEventListener("input", () => adjust({ [field]: input.value.toUpperCase() }, false))
  input.addEventListener("change", () => adjust({ [field]: input.value.toUpperCase() }, true))
}
colour(ui.textColor, "textColor")
colour(ui.highlightColor, "highlightColor")
colour(ui.outlineColor, "outlineColor")

ui.position.addEventListener("change", () => adjust({ position: ui.position.value as CaptionStyle["position"] }, true))
ui.font.addEventListener("change", () => adjust({ fontFamily: ui.font.value }, true))
ui.highlight.addEventListener("change", () => adjust({ highlight: ui.highlight.value as CaptionStyle["highlight"] }, true))
ui.animation.addEventListener("change", () => adjust({ animation: ui.animation.value as CaptionAnimation }, true))
ui.uppercase.addEventListener("change", () => adjust({ uppercase: ui.uppercase.checked }, true))
ui.bold.addEventListener("change", () => adjust({ bold: ui.bold.checked }, true))
ui.template.addEventListener("change", () => {
  const id = Number(ui.template.value)
  commit(swapTemplate(history.present, id, templateStyle(id)))
})

// --- Hook and platform: typing previews, and leaving the field (or Enter) makes one undo step.

const typedHook = () => setHook(history.present, ui.hookText.value, ui.hookSeconds.valueAsNumber)

/** The hook's fields as the document has it (the seconds wait, off, until there is a hook). */
const showHook = () => {
  const { hook } = history.present
  ui.hookText.value = hook?.text ?? ""
  ui.hookSeconds.value = String(hook?.seconds ?? HOOK_DEFAULT_SECONDS)
  ui.hookSeconds.disabled = hook === null
}

for (const input of [ui.hookText, ui.hookSeconds]) {
  input.addEventListener("input", () => previewOnly(typedHook()))
  input.addEventListener("change", () => {
    commit(typedHook())
    // What was typed as it is kept: trimmed, its seconds in range (and unchanged when it changed nothing).
    showHook()
  })
}
ui.platform.addEventListener("change", () => commit(setPlatform(history.present, ui.platform.value as Platform)))
ui.emphasis.addEventListener("change", () => {
  const before = history.present
  const next = setEmphasisMode(before, ui.emphasis.value === "auto" ? "auto" : "off")
  commit(next)
  if (next === before || next.emphasis !== "auto" || history.present !== next) return
  choosing = next
  // The server chooses the words: asked at once rather than after the autosave's pause.
  void saver.flush().catch(() => undefined)
})

/** Says which of the platform's zones the captions reach into where they are placed. */
const warnOfZones = (platform: Platform, entered: ReadonlyArray<SafeZone>) => {
  ui.zoneWarning.textContent = entered.length === 0
    ? ""
    : `The captions reach into ${PLATFORM_NAMES[platform]}'s ${entered.map((zone) => zone.label).join("; ")}: the export moves them clear of ${entered.length === 1 ? "it" : "them"}.`
}

let zonesDrawn: Platform | null = null

/** The platform's zones over the picture (portrait videos only), and the warning for the block. */
const syncZones = () => {
  const { platform } = history.present
  warnOfZones(platform, rendering.entered)
  if (platform === zonesDrawn) return
  zonesDrawn = platform
  const zones = zonesOver(platform, shape.width, shape.height)
  const fraction = (n: number) => `${n * 100}%`
  ui.safeZones.hidden = zones.length === 0
  ui.safeZones.setAttribute("aria-label", `Where ${PLATFORM_NAMES[platform]} draws its interface`)
  ui.safeZones.replaceChildren(...zones.map((zone) => {
    const node = element("div", { className: "zone", title: zone.label, textContent: zone.label })
    node.setAttribute("role", "img")
    node.setAttribute("aria-label", zone.label)
    Object.assign(node.style, { left: fraction(zone.x), top: fraction(zone.y), width: fraction(zone.width), height: fraction(zone.height) })
    return node
  }))
}

const fillTemplates = () => {
  const group = (label: string, list: ReadonlyArray<EditorTemplate>) => {
    const node = element("optgroup")
    node.label = label
    node.append(...list.map((t) => Object.assign(element("option", { textContent: t.name }), { value: String(t.id) })))
    return node
  }
  const own = templates.filter((t) => !t.builtIn)
  ui.template.replaceChildren(group("Built-in", templates.filter((t) => t.builtIn)), ...(own.length > 0 ? [group("This workspace", own)] : []))
}

/** The caption fonts the service ships, and any other family a template names (the server stands one in for it). */
const fillFonts = () => {
  const families = [...new Set([...CAPTION_FONT_FAMILIES.map((f) => f.family), ...templates.map((t) => t.style.fontFamily), rendering.chosen.fontFamily])]
  ui.font.replaceChildren(...families.map((family) => Object.assign(element("option", { textContent: family }), { value: family })))
}

ui.saveTemplate.addEventListener("click", async () => {
  const name = ui.templateName.value.trim()
  ui.templateError.textContent = ""
  if (name === "") {
    ui.templateError.textContent = "Give the template a name."
    return
  }
  ui.saveTemplate.disabled = true
  try {
    // The server saves the style as saved: the latest change must be there first.
    await saver.flush()
    const saved = await api.saveTemplate({ name })
    templates = [...templates, saved]
    fillTemplates()
    fillFonts()
    ui.templateName.value = ""
    commit(swapTemplate(history.present, saved.id, saved.style))
  } catch (error) {
    ui.templateError.textContent = messageOf(error)
  } finally {
    ui.saveTemplate.disabled = false
  }
})

// --- Drawing the editor

const syncWordTools = () => {
  const word = selected === null ? undefined : history.present.words[selected]
  ui.wordStart.disabled = word === undefined
  ui.wordEnd.disabled = word === undefined
  ui.deleteWord.disabled = word === undefined
  ui.toggleEmphasis.disabled = word === undefined
  ui.toggleEmphasis.setAttribute("aria-pressed", String(word?.emphasis === true))
  const held = selected === null ? undefined : lineHolding(rendering.pages, selected)
  const emoji = held === undefined ? null : lineEmoji(held.line)
  ui.lineEmoji.disabled = word === undefined
  if (document.activeElement !== ui.lineEmoji) ui.lineEmoji.value = emoji ?? ""
  ui.removeEmoji.disabled = emoji === null
  showTimes(word)
  const starts = lineStartsIn(history.present, rendering.pages)
  ui.splitLine.disabled = selected === null || !canSplitBefore(starts, selected)
  ui.mergeLine.disabled = selected === null || !canMergeAfter(starts, selected)
}

const syncStyle = () => {
  const style = rendering.chosen
  const placement = placementOf(style)
  ui.template.value = String(history.present.templateId)
  ui.position.value = style.position
  ui.margin.value = String(placement.marginRatio)
  ui.margin.disabled = placement.edge === "centre"
  ui.marginValue.value = placement.edge === "centre" ? "centred" : percent(placement.marginRatio, 1)
  if (![...ui.font.options].some((option) => option.value === style.fontFamily)) fillFonts()
  ui.font.value = style.fontFamily
  ui.fontSize.value = String(style.fontSizeRatio)
  ui.fontSizeValue.value = percent(style.fontSizeRatio, 1)
  ui.textColor.value = style.textColor.toLowerCase()
  ui.highlightColor.value = style.highlightColor.toLowerCase()
  ui.outlineColor.value = style.outlineColor.toLowerCase()
  ui.highlight.value = style.highlight
  ui.animation.value = style.animation ?? "none"
  ui.uppercase.checked = style.uppercase
  ui.bold.checked = style.bold
  ui.emphasis.value = history.present.emphasis
  // A field being typed in keeps what is typed (a save that comes back redraws the editor meanwhile).
  if (document.activeElement !== ui.hookText && document.activeElement !== ui.hookSeconds) showHook()
  ui.platform.value = history.present.platform
  syncZones()
}

const syncLock = () => {
  const locked = busy()
  ui.wordTools.disabled = locked
  ui.styleTools.disabled = locked
  ui.undo.disabled = locked || history.past.length === 0
  ui.redo.disabled = locked || history.future.length === 0
  document.body.toggleAttribute("data-locked", locked)
  showSaveState()
}

/** The cuts the export leaves out, each with its Restore button. */
const syncCuts = (cuts: ReadonlyArray<Cut>) => {
  ui.cuts.hidden = cuts.length === 0
  ui.cutList.replaceChildren(...cuts.map((cut, i) => {
    const restore = element("button", { textContent: "Restore", title: "Keep this span in the export" })
    restore.type = "button"
    restore.dataset["cut"] = String(i)
    const text = `${clockText(cut.start)}–${clockText(cut.end)} ${CUT_REASONS[cut.reason]} (${(cut.end - cut.start).toFixed(1)} s)`
    return element("li", { className: "cut" }, [document.createTextNode(text), restore])
  }))
}

ui.cutList.addEventListener("click", (event) => {
  const index = event.target instanceof HTMLButtonElement ? event.target.dataset["cut"] : undefined
  if (index !== undefined) commit(restoreCut(history.present, Number(index)))
})

/** Draws everything that follows from the document and the selection. */
const refresh = () => {
  const doc = history.present
  rendering = render(doc)
  showTrack(rendering.ass)
  showEmoji()
  if (selected !== null && selected >= doc.words.length) {
    selected = doc.words.length > 0 ? doc.words.length - 1 : null
    editing = false
  }
  if (busy()) editing = false
  transcript.render(rendering.pages, selected, editing)
  timeline.render(doc.words, rendering.pages, selected)
  syncCuts(doc.cuts)
  syncWordTools()
  syncStyle()
  syncLock()
  // The windows follow an undone or adopted framing (on the next frame: the player's loop is declared below).
  requestAnimationFrame(() => tick())
}

// --- Export

let shownResult: string | undefined

const syncExport = () => {
  const state = video.export
  const running = busy()
  ui.exportButton.disabled = !bootstrap.canExport || running || exportStarting
  ui.exportReason.hidden = bootstrap.canExport
  ui.exportReason.textContent = bootstrap.canExport ? "" : "Exporting is not part of this workspace's plan."
  ui.exportStatus.hidden = !running
  if (state?.status === "rendering") {
    ui.exportProgress.value = state.progress
    ui.exportPercent.textContent = `Exporting… ${percent(state.progress, 0)}`
  } else if (running) {
    ui.exportProgress.removeAttribute("value")
    ui.exportPercent.textContent = "Rendering…"
  }
  if (state?.status === "failed") ui.exportError.textContent = `The export failed: ${state.error ?? "no reason given"}`
  const url = running ? undefined : video.videoUrl
  if (url !== shownResult) {
    shownResult = url
    if (url === undefined) ui.exportResult.replaceChildren()
    else {
      const link = element("a", { id: "export-link", textContent: "Download the mp4" })
      link.href = url
      link.download = `${video.id}.mp4`
      const player = element("video", { id: "export-video" })
      player.src = url
      player.controls = true
      player.preload = "metadata"
      player.playsInline = true
      const when = state?.finishedAt === undefined ? "" : ` ${new Date(state.finishedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`
      ui.exportResult.replaceChildren(element("p", { textContent: `Exported${when} · ` }, [link]), player)
    }
  }
}

let watching = false

/** Polls the state while the video renders, then opens the editor again. */
const watchRender = async () => {
  if (watching) return
  watching = true
  try {
    while (busy()) {
      await sleep(POLL_INTERVAL_MS)
      try {
        video = (await api.state()).video
        if (video.export?.status !== "failed") ui.exportError.textContent = ""
      } catch (error) {
        ui.exportError.textContent = messageOf(error)
      }
      syncExport()
      if (!busy()) {
        refresh()
        ui.exportResult.scrollIntoView({ block: "nearest" })
      }
    }
  } finally {
    watching = false
  }
}

ui.exportButton.addEventListener("click", async () => {
  ui.exportError.textContent = ""
  exportStarting = true
  syncExport()
  try {
    await saver.flush()
    video = await api.exportVideo({
      format: ui.exportFormat.value === "greenscreen" ? "greenscreen" : "standard",
      frameRate: ui.exportFps.value === "60" ? 60 : 30
    })
    refresh()
    void watchRender()
  } catch (error) {
    ui.exportError.textContent = messageOf(error)
  } finally {
    exportStarting = false
    syncExport()
  }
})

// --- Playback

/** The emoji the export draws at the video's time, placed as it places them (in fractions of the picture). */
const showEmoji = () => {
  const t = ui.video.currentTime
  const scale = ui.emojiLayer.clientHeight / shape.height
  const fraction = (n: number, of: number) => `${(n / of) * 100}%`
  ui.emojiLayer.replaceChildren(...rendering.emoji.filter((spot) => t >= spot.start && t < spot.end).map((spot) => {
    const node = element("span", { textContent: spot.emoji })
    Object.assign(node.style, {
      left: fraction(spot.x, shape.width),
      top: fraction(spot.y, shape.height),
      width: fraction(spot.size, shape.width),
      height: fraction(spot.size, shape.height),
      fontSize: `${spot.size * 0.82 * scale}px`
    })
    return node
  }))
}

const windows = cropWindows({
  layer: ui.cropLayer,
  video: ui.video,
  editable: () => !busy(),
  onMoved: () => tick(),
  onPinned: (framing) => commit({ ...history.present, framing })
})

const output = outputView({ canvas: ui.outputCanvas, video: ui.video })
/** The output drawn in the source's place (a reframed video's), rather than its windows over the source. */
let viewingOutput = false
ui.viewOutput.hidden = history.present.framing === null
ui.viewOutput.addEventListener("click", () => {
  viewingOutput = !viewingOutput
  ui.viewOutput.setAttribute("aria-pressed", String(viewingOutput))
  ui.player.dataset.view = viewingOutput ? "output" : "source"
  tick()
  if (ui.video.paused) void preview?.renderNow()
})

/** The emoji are laid out in the output's frame, as the captions: the box it is shown in, or the whole player. */
const placeEmojiLayer = (box: PreviewBox | null) => {
  const px = (n: number) => `${n}px`
  Object.assign(ui.emojiLayer.style, box === null
    ? { left: "", top: "", width: "", height: "" }
    : { left: px(box.left), top: px(box.top), width: px(box.width), height: px(box.height) })
}

const tick = () => {
  const t = ui.video.currentTime
  const framing = history.present.framing
  // The captions and emoji are previewed in the output's frame: the output drawn in the source's place,
  // or the one window over the source that the export scales up.
  const windowBox = windows.show(viewingOutput ? null : framing)
  const outputBox = output.show(viewingOutput ? framing : null) ?? windowBox
  preview?.placeIn(outputBox)
  placeEmojiLayer(outputBox)
  showEmoji()
  ui.clock.textContent = `${clockText(t)} / ${clockText(video.duration)}`
  timeline.setTime(t, !ui.video.paused)
  const now = wordAt(history.present.words, t)
  transcript.markNow(now)
  timeline.markNow(now)
}

/** Playing plays the output: a cut span is skipped, from where playing starts and as playing reaches one. */
const skipCut = () => {
  const past = pastCut(history.present.cuts, ui.video.currentTime)
  if (!ui.video.paused && past !== ui.video.currentTime) ui.video.currentTime = past
}

const loop = () => {
  skipCut()
  tick()
  if (!ui.video.paused) requestAnimationFrame(loop)
}

const togglePlay = () => {
  if (ui.video.paused) ui.video.play().catch((error: unknown) => showNotice(`The video does not play: ${messageOf(error)}`))
  else ui.video.pause()
}

ui.play.addEventListener("click", togglePlay)
ui.video.addEventListener("click", togglePlay)
ui.video.addEventListener("play", () => {
  ui.play.textContent = "Pause"
  skipCut()
  requestAnimationFrame(loop)
})
ui.video.addEventListener("pause", () => {
  ui.play.textContent = "Play"
  tick()
})
ui.video.addEventListener("seeked", () => {
  tick()
  if (ui.video.paused) void preview?.renderNow()
})
ui.video.addEventListener("error", () => showNotice("The video could not be loaded."))

/**
 * A generated video's picture is rendered for the editor when it is first opened: the page polls until
 * it is there, then plays it. Editing works meanwhile.
 */
const waitForPicture = async () => {
  const preparing = "Preparing the picture the captions are previewed over (the video is rendered once, without captions). It plays here when it is ready; editing works meanwhile."
  if (video.picture === "preparing") showNotice(preparing)
  while (video.picture === "preparing") {
    ui.player.dataset.picture = video.picture
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
    video = await api.state().then((state) => state.video, () => video)
  }
  ui.player.dataset.picture = video.picture
  if (video.picture === "failed") return showNotice(video.pictureError ?? "There is no picture to play.")
  if (ui.noticeText.textContent === preparing) ui.notice.hidden = true
  if (ui.video.getAttribute("src") === null) ui.video.src = video.sourceUrl
}
void waitForPicture()

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ||
  (target instanceof HTMLInputElement && !["checkbox", "range", "color", "button"].includes(target.type))

document.addEventListener("keydown", (event) => {
  if (typingIn(event.target)) return
  const key = event.key.toLowerCase()
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "y")) {
    event.preventDefault()
    travel(key === "y" || event.shiftKey ? redo : undo)
  } else if (key === " " && !(event.target instanceof HTMLButtonElement)) {
    event.preventDefault()
    togglePlay()
  } else if (key === "e" && !event.ctrlKey && !event.metaKey && !event.altKey && selected !== null) {
    event.preventDefault()
    toggleSelected()
  }
})

window.addEventListener("beforeunload", (event) => {
  if (!saver.dirty()) return
  void saver.flush().catch(() => undefined)
  event.preventDefault()
})
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") void saver.flush().catch(() => undefined)
})

// --- Start

if (video.export !== undefined) {
  ui.exportFormat.value = video.export.format
  ui.exportFps.value = String(video.export.frameRate)
}
fillTemplates()
fillFonts()
showClipList(ui.clips, ui.clipList, bootstrap.clips)
refresh()
syncExport()
tick()
if (busy()) void watchRender()
if (ui.video.readyState >= HTMLMediaElement.HAVE_METADATA) void startPreview()
else ui.video.addEventListener("loadedmetadata", () => void startPreview(), { once: true })
document.body.dataset.ready = "yes"
