// The editor's caption preview: the same ASS script the worker burns with ffmpeg's libass, drawn by
// libass compiled to wasm (JASSUB) on a canvas over the playing <video>. Everything it loads (worker,
// wasm, fonts) comes from the service's own /editor-assets route; it never looks fonts up elsewhere.
import JASSUB from "jassub"
import type { CaptionPreviewAssets } from "../caption-preview-assets.ts"

export interface CaptionPreview {
  /** Replaces the script; a paused video shows the change at once, a playing one on its next frame. */
  readonly setTrack: (ass: string) => Promise<void>
  /** Draws the captions of the video's current time (after a seek while paused, say). */
  readonly renderNow: () => Promise<void>
  /**
   * Draws the captions into this box of the video's parent (CSS pixels) instead of over the whole picture:
   * a reframed video's window, which the export scales up to the output. Null: over the picture.
   */
  readonly placeIn: (box: PreviewBox | null) => void
  readonly destroy: () => Promise<void>
}

export interface PreviewBox {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

/** A script with no events, until the first track arrives. */
const EMPTY_TRACK = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"

/** The Fontname (second field) of each `Style:` line, lower-cased as libass compares them. */
const styleFamilies = (ass: string): ReadonlyArray<string> =>
  [...ass.matchAll(/^Style:[^,\n]*,([^,\n]*)/gm)].map((match) => (match[1] ?? "").trim().toLowerCase())

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/**
 * Puts the preview canvas right after `video`, sized and placed over its picture (the video's
 * parent should be positioned, e.g. `position: relative`).
 */
export const createCaptionPreview = async (options: {
  readonly video: HTMLVideoElement
  readonly assets: CaptionPreviewAssets
  readonly ass?: string
}): Promise<CaptionPreview> => {
  const { video, assets } = options
  const fontsOf = new Map(Object.entries(assets.fonts).map(([family, urls]) => [family.toLowerCase(), urls]))
  /** The font files a script draws with, by family (and the CJK fallback when its text has CJK). */
  const fontsFor = (ass: string): ReadonlyArray<readonly [string, ReadonlyArray<string>]> => [
    ...styleFamilies(ass).flatMap((family) => {
      const urls = fontsOf.get(family)
      return urls === undefined ? [] : [[family, urls] as const]
    }),
    // The families have no CJK glyphs: the server's fontconfig falls back to this file for them.
    ...(CJK.test(ass) ? [[assets.cjkFallback.family.toLowerCase(), [assets.cjkFallback.url]] as const] : [])
  ]
  /**
   * libass in wasm has no fontconfig to find another font for a glyph the family lacks: it tries only
   * the default family. So a script with CJK text gets the CJK fallback as its default family (a family
   * no file provides then stands in as that font, not as DejaVu Sans as on the server).
   */
  const defaultFamilyFor = (ass: string) => CJK.test(ass) ? assets.cjkFallback.family : assets.defaultFont
  const initial = new Map([[assets.defaultFont.toLowerCase(), fontsOf.get(assets.defaultFont.toLowerCase()) ?? []], ...fontsFor(options.ass ?? "")])
  let defaultFamily = defaultFamilyFor(options.ass ?? "")
  const jassub = new JASSUB({
    video,
    subContent: options.ass ?? EMPTY_TRACK,
    workerUrl: assets.workerUrl,
    wasmUrl: assets.wasmUrl,
    modernWasmUrl: assets.modernWasmUrl,
    fonts: [...initial.values()].flat(),
    availableFonts: {},
    defaultFont: defaultFamily,
    queryFonts: false
  })
  await jassub.ready

  // A family's files are fetched once, when a script first names it, and before that script is set:
  // libass picks its fonts as the track is drawn, so the first frame already has the right ones.
  const loading = new Map<string, Promise<unknown>>([...initial.keys()].map((key) => [key, Promise.resolve()]))
  const loadFontsFor = (ass: string) => Promise.all(fontsFor(ass).map(([key, urls]) => {
    const known = loading.get(key)
    if (known !== undefined) return known
    const added = jassub.renderer.addFonts([...urls])
    loading.set(key, added)
    return added
  }))

  const renderNow = async () => {
    // A draw in flight would swallow this request and resolve early: let it finish first.
    while (jassub.busy) await new Promise((resolve) => requestAnimationFrame(resolve))
    const frame = {
      mediaTime: video.currentTime,
      width: video.videoWidth,
      height: video.videoHeight,
      expectedDisplayTime: performance.now()
    }
    // A first call after the video's size changed only resizes the canvas; the second draws.
    await jassub.manualRender(frame, true)
    await jassub.manualRender(frame, true)
  }

  // JASSUB lays its canvas over the picture whenever it resizes: a box asked for is laid again after it.
  const canvas = video.parentElement?.querySelector<HTMLCanvasElement>("canvas.JASSUB") ?? null
  let box: PreviewBox | null = null
  const lay = () => {
    if (canvas === null || box === null || video.videoWidth === 0 || video.videoHeight === 0) return
    // libass fits the script's frame (the box's shape) inside the canvas, which has the picture's shape, and
    // centres it: the canvas is sized so that the fitted frame falls on the box.
    const pictureAspect = video.videoWidth / video.videoHeight
    const wider = pictureAspect > box.width / box.height
    const width = wider ? box.height * pictureAspect : box.width
    const height = wider ? box.height : box.width / pictureAspect
    const left = box.left - (width - box.width) / 2
    const top = box.top - (height - box.height) / 2
    const want = { left: `${left}px`, top: `${top}px`, width: `${width}px`, height: `${height}px` }
    if (Object.entries(want).some(([k, v]) => canvas.style.getPropertyValue(k) !== v)) Object.assign(canvas.style, want)
  }
  const watching = new MutationObserver(lay)
  if (canvas !== null) watching.observe(canvas, { attributes: true, attributeFilter: ["style"] })

  return {
    placeIn: (next) => {
      const wasSet = box !== null
      box = next
      if (next !== null) lay()
      else if (wasSet) void jassub.resize()
    },
    setTrack: async (ass) => {
      await loadFontsFor(ass)
      const family = defaultFamilyFor(ass)
      if (family !== defaultFamily) {
        await jassub.renderer.setDefaultFont(family)
        defaultFamily = family
      }
      await jassub.renderer.setTrack(ass)
      if (video.paused) await renderNow()
    },
    renderNow,
    destroy: () => {
      watching.disconnect()
      return jassub.destroy()
    }
  }
}
