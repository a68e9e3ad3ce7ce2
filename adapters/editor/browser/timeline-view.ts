// The timeline under the video: a ruler, each caption line as a bar, each word as a block at its
// time, and the playhead. Clicking seeks; dragging a block's left or right edge moves the word's
// start or end, kept off its neighbours and no shorter than MIN_WORD_SECONDS.
import type { CaptionPage, TimedWord } from "../../../domain/captions.ts"
import { clockText, element } from "./dom.ts"
import { clamp, dragBounds } from "./editor-document.ts"

export interface TimelineEvents {
  /** Whether words may be retimed now (not while the video renders). */
  readonly editable: () => boolean
  readonly select: (index: number) => void
  readonly seek: (seconds: number) => void
  /** A word's edge moved: `done` once the drag ends (commit), before that while it moves (preview only). */
  readonly retime: (index: number, times: { readonly start: number; readonly end: number }, done: boolean) => void
}

export interface TimelineView {
  readonly render: (words: ReadonlyArray<TimedWord>, pages: ReadonlyArray<CaptionPage>, selected: number | null) => void
  /** Moves the playhead; `follow` scrolls it into view (while playing). */
  readonly setTime: (seconds: number, follow: boolean) => void
  readonly markNow: (index: number | null) => void
}

interface Drag {
  readonly index: number
  readonly edge: "start" | "end"
  readonly bounds: readonly [number, number]
  readonly word: TimedWord
  readonly pointerId: number
  times: { start: number; end: number }
}

/** Ruler ticks about every 80 px, at a step a person reads easily. */
const tickStep = (pixelsPerSecond: number): number => [0.25, 0.5, 1, 2, 5, 10, 30, 60].find((s) => s * pixelsPerSecond >= 80) ?? 120

export const timelineView = (
  parts: { readonly scroller: HTMLElement; readonly track: HTMLElement; readonly playhead: HTMLElement; readonly zoom: HTMLInputElement },
  durationSeconds: number,
  on: TimelineEvents
): TimelineView => {
  const { scroller, track, playhead, zoom } = parts
  let words: ReadonlyArray<TimedWord> = []
  let pages: ReadonlyArray<CaptionPage> = []
  let selected: number | null = null
  let blocks: ReadonlyArray<HTMLElement> = []
  let now: number | null = null
  let time = 0
  let drag: Drag | null = null

  const scale = () => Number(zoom.value)
  const secondsAt = (clientX: number) => Math.max(0, (clientX - track.getBoundingClientRect().left) / scale())
  const px = (seconds: number) => `${(seconds * scale()).toFixed(1)}px`

  const place = (node: HTMLElement, start: number, end: number) => {
    node.style.left = px(start)
    node.style.width = px(Math.max(0, end - start))
  }

  const draw = () => {
    const length = Math.max(durationSeconds, words.at(-1)?.end ?? 0)
    track.style.width = `${Math.ceil(length * scale()) + 40}px`
    const step = tickStep(scale())
    const ticks = Array.from({ length: Math.floor(length / step) + 1 }, (_, k) => {
      const tick = element("div", { className: "tick", textContent: clockText(k * step) })
      tick.style.left = px(k * step)
      return tick
    })
    const spans = pages.flatMap((page) => page.lines).map((line) => {
      const span = element("div", { className: "span", title: line.text })
      place(span, line.start, line.end)
      return span
    })
    blocks = words.map((word, i) => {
      const block = element("div", { className: "block", id: `block-${i}`, textContent: word.text, title: `${word.text} ${word.start.toFixed(2)}–${word.end.toFixed(2)} s` })
      block.dataset.index = String(i)
      if (i === selected) block.classList.add("selected")
      if (i === now) block.classList.add("now")
      for (const edge of ["start", "end"] as const) {
        const handle = element("div", { className: `handle ${edge}`, title: edge === "start" ? "Drag to move the start" : "Drag to move the end" })
        handle.dataset.edge = edge
        block.append(handle)
      }
      place(block, word.start, word.end)
      return block
    })
    track.replaceChildren(...ticks, ...spans, ...blocks, playhead)
    playhead.style.left = px(time)
  }

  track.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return
    const target = event.target instanceof Element ? event.target : null
    const block = target?.closest<HTMLElement>(".block") ?? null
    if (block === null) return on.seek(secondsAt(event.clientX))
    const index = Number(block.dataset.index)
    const word = words[index]
    if (word === undefined) return
    const edge = target?.closest<HTMLElement>(".handle")?.dataset.edge
    if ((edge !== "start" && edge !== "end") || !on.editable()) {
      on.select(index)
      return on.seek(word.start)
    }
    event.preventDefault()
    on.select(index)
    track.setPointerCapture(event.pointerId)
    drag = { index, edge, bounds: dragBounds(words, index, durationSeconds)[edge], word, pointerId: event.pointerId, times: { start: word.start, end: word.end } }
  })

  track.addEventListener("pointermove", (event) => {
    if (drag === null || event.pointerId !== drag.pointerId) return
    const at = Math.round(clamp(secondsAt(event.clientX), drag.bounds) * 100) / 100
    drag.times = drag.edge === "start" ? { start: at, end: drag.word.end } : { start: drag.word.start, end: at }
    const block = blocks[drag.index]
    if (block !== undefined) place(block, drag.times.start, drag.times.end)
    on.retime(drag.index, drag.times, false)
  })

  const endDrag = (event: PointerEvent) => {
    if (drag === null || event.pointerId !== drag.pointerId) return
    const { index, times } = drag
    drag = null
    on.retime(index, times, true)
  }
  track.addEventListener("pointerup", endDrag)
  track.addEventListener("pointercancel", endDrag)

  zoom.addEventListener("input", () => {
    const centre = time * scale()
    draw()
    scroller.scrollLeft = Math.max(0, centre - scroller.clientWidth / 2)
  })

  return {
    render: (nextWords, nextPages, nextSelected) => {
      words = nextWords
      pages = nextPages
      selected = nextSelected
      if (drag === null) draw()
    },
    setTime: (seconds, follow) => {
      time = seconds
      playhead.style.left = px(seconds)
      const x = seconds * scale()
      if (follow && (x < scroller.scrollLeft || x > scroller.scrollLeft + scroller.clientWidth - 40)) {
        scroller.scrollLeft = Math.max(0, x - scroller.clientWidth / 4)
      }
    },
    markNow: (index) => {
      if (index === now) return
      if (now !== null) blocks[now]?.classList.remove("now")
      now = index
      if (index !== null) blocks[index]?.classList.add("now")
    }
  }
}
