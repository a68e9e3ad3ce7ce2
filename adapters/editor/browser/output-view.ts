// A reframed video's output drawn over the player in place of its source: each window scaled into its
// part of the output as the export scales it (a split's two stacked), or, for `fit`, the whole picture over
// a blurred, enlarged copy of itself. It is drawn from the playing source at every tick, so a split can be
// watched as it will play, with the captions and emoji laid over it.
import { type Framing, windowAt, windowPlaces } from "../../../domain/reframe.ts"
import type { PreviewBox } from "./caption-preview.ts"

/** The export blurs its background 2 px at a twelfth of the output's size (framing-filters.ts): 24 px on a 1080-wide output. */
const FIT_BLUR_SHARE = 24 / 1080

export interface OutputView {
  /**
   * Draws the output of `framing` at the video's current time, fitted in the player and centred, and
   * answers where it is in the player's pixels; null hides it.
   */
  readonly show: (framing: Framing | null) => PreviewBox | null
}

export const outputView = (options: { readonly canvas: HTMLCanvasElement; readonly video: HTMLVideoElement }): OutputView => {
  const { canvas, video } = options
  const context = canvas.getContext("2d")

  /** Paints the frame showing now, in the output's own pixels. */
  const paint = (framing: Framing, draw: CanvasRenderingContext2D) => {
    // The source's pixels as the video decodes them (the framing's are the same, rotation applied).
    const sx = video.videoWidth / framing.sourceWidth
    const sy = video.videoHeight / framing.sourceHeight
    draw.setTransform(canvas.width / framing.width, 0, 0, canvas.height / framing.height, 0, 0)
    if (framing.mode === "fit") {
      const cover = Math.max(framing.width / framing.sourceWidth, framing.height / framing.sourceHeight)
      const contain = Math.min(framing.width / framing.sourceWidth, framing.height / framing.sourceHeight)
      const centred = (scale: number) => {
        const [w, h] = [framing.sourceWidth * scale, framing.sourceHeight * scale]
        return [(framing.width - w) / 2, (framing.height - h) / 2, w, h] as const
      }
      draw.filter = `blur(${Math.round(canvas.width * FIT_BLUR_SHARE)}px)`
      draw.drawImage(video, ...centred(cover))
      draw.filter = "none"
      draw.drawImage(video, ...centred(contain))
      return
    }
    const places = windowPlaces(framing)
    framing.paths.forEach((path, p) => {
      const place = places[p]
      if (place === undefined) return
      const at = windowAt(path, video.currentTime)
      draw.drawImage(video, at.x * sx, at.y * sy, framing.crop.width * sx, framing.crop.height * sy, place.x, place.y, place.width, place.height)
    })
  }

  const show = (framing: Framing | null) => {
    canvas.hidden = framing === null || context === null
    if (framing === null || context === null) return null
    const [room, roomHeight] = [video.clientWidth, video.clientHeight]
    const scale = Math.min(room / framing.width, roomHeight / framing.height)
    const box = { width: framing.width * scale, height: framing.height * scale }
    const placed = { left: (room - box.width) / 2, top: (roomHeight - box.height) / 2, ...box }
    // Drawn at the screen's own resolution: sharp, and no larger than it is shown.
    const [w, h] = [Math.max(1, Math.round(box.width * devicePixelRatio)), Math.max(1, Math.round(box.height * devicePixelRatio))]
    if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h]
    Object.assign(canvas.style, { left: `${placed.left}px`, top: `${placed.top}px`, width: `${box.width}px`, height: `${box.height}px` })
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) paint(framing, context)
    return placed
  }

  return { show }
}
