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
  readonly destroy: () => Promise<void>
}

/** A script with no events, until the first track arrives. */
const EMPTY_TRACK = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"

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
  const jassub = new JASSUB({
    video,
    subContent: options.ass ?? EMPTY_TRACK,
    workerUrl: assets.workerUrl,
    wasmUrl: assets.wasmUrl,
    modernWasmUrl: assets.modernWasmUrl,
    fonts: [...assets.fonts],
    availableFonts: {},
    defaultFont: assets.defaultFont,
    queryFonts: false
  })
  await jassub.ready

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

  return {
    setTrack: async (ass) => {
      await jassub.renderer.setTrack(ass)
      if (video.paused) await renderNow()
    },
    renderNow,
    destroy: () => jassub.destroy()
  }
}
