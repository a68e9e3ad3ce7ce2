// A reframed video's windows drawn over its source: where each window's path puts it at the playing
// time, the rest of the picture dimmed. Dragging a window moves it at that time: on release the path gets
// a key there (it passes through it), handed over as one edit.
import { type Framing, pinKey, windowAt } from "../../../domain/reframe.ts"
import { element } from "./dom.ts"

export interface CropWindows {
  /**
   * Draws the windows of `framing` at the video's current time (none for null or `fit`), and answers where
   * the one window is in the layer's pixels: the output is that window scaled up (null for none, or two).
   */
  readonly show: (framing: Framing | null) => { readonly left: number; readonly top: number; readonly width: number; readonly height: number } | null
}

export const cropWindows = (options: {
  /** Laid over the picture exactly (inset 0 in the player). */
  readonly layer: HTMLElement
  readonly video: HTMLVideoElement
  readonly editable: () => boolean
  /** A window moved while dragged (or went back): draw again. */
  readonly onMoved: () => void
  readonly onPinned: (framing: Framing) => void
}): CropWindows => {
  const { layer, video } = options
  let shown: Framing | null = null
  let boxes: Array<HTMLElement> = []
  /** A window being dragged, where it is now in source pixels. */
  let dragging: { readonly index: number; x: number; y: number } | null = null

  const place = (box: HTMLElement, framing: Framing, at: { readonly x: number; readonly y: number }) => {
    const percent = (n: number, of: number) => `${(n / of) * 100}%`
    box.style.left = percent(at.x, framing.sourceWidth)
    box.style.top = percent(at.y, framing.sourceHeight)
    box.style.width = percent(framing.crop.width, framing.sourceWidth)
    box.style.height = percent(framing.crop.height, framing.sourceHeight)
  }

  const show = (framing: Framing | null) => {
    shown = framing
    const paths = framing?.paths ?? []
    if (boxes.length !== paths.length) {
      boxes = paths.map((_, index) => {
        const box = element("div", { className: "crop-window", title: "Drag to move the window at this moment" })
        box.dataset.window = String(index)
        box.addEventListener("pointerdown", (event) => startDrag(event, index, box))
        return box
      })
      layer.replaceChildren(...boxes)
    }
    layer.hidden = boxes.length === 0
    if (framing === null) return null
    paths.forEach((path, index) => {
      const at = dragging?.index === index ? dragging : windowAt(path, video.currentTime)
      place(boxes[index]!, framing, at)
    })
    const [only, ...more] = boxes
    return only === undefined || more.length > 0 ? null : { left: only.offsetLeft, top: only.offsetTop, width: only.offsetWidth, height: only.offsetHeight }
  }

  const startDrag = (event: PointerEvent, index: number, box: HTMLElement) => {
    const framing = shown
    const path = framing?.paths[index]
    if (framing === null || path === undefined || !options.editable()) return
    event.preventDefault()
    video.pause()
    box.setPointerCapture(event.pointerId)
    const from = windowAt(path, video.currentTime)
    const [startX, startY] = [event.clientX, event.clientY]
    const scale = framing.sourceWidth / layer.clientWidth
    const range = { x: framing.sourceWidth - framing.crop.width, y: framing.sourceHeight - framing.crop.height }
    dragging = { index, x: from.x, y: from.y }
    const move = (e: PointerEvent) => {
      if (dragging === null) return
      dragging.x = Math.min(range.x, Math.max(0, from.x + (e.clientX - startX) * scale))
      dragging.y = Math.min(range.y, Math.max(0, from.y + (e.clientY - startY) * scale))
      options.onMoved()
    }
    const end = () => {
      box.removeEventListener("pointermove", move)
      const dropped = dragging
      dragging = null
      if (dropped === null || (Math.round(dropped.x) === from.x && Math.round(dropped.y) === from.y)) {
        options.onMoved()
        return
      }
      const paths = framing.paths.map((p, i) => i === index ? pinKey(framing, p, { seconds: video.currentTime, x: dropped.x, y: dropped.y }) : p)
      options.onPinned({ ...framing, paths })
    }
    box.addEventListener("pointermove", move)
    box.addEventListener("pointerup", end, { once: true })
    box.addEventListener("pointercancel", end, { once: true })
  }

  return { show }
}
