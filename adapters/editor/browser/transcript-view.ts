// The transcript as the captions will show it: pages of lines of word chips, emphasised ones marked,
// each line's emoji after it.
// Clicking a word selects it and opens its text for editing in place; a line's time seeks there.
import { lineReading, MAX_CHARACTERS_PER_LINE, MAX_CHARACTERS_PER_SECOND } from "../../../domain/caption-readability.ts"
import { type CaptionLine, type CaptionPage, lineEmoji, LOW_CONFIDENCE } from "../../../domain/captions.ts"
import { clockText, element } from "./dom.ts"

export interface TranscriptEvents {
  readonly select: (index: number) => void
  readonly seek: (seconds: number) => void
  /** The word being edited is done: its new text (null: keep the old one), then the word to edit next (-1, +1) or none (0). */
  readonly finish: (text: string | null, move: -1 | 0 | 1) => void
}

export interface TranscriptView {
  readonly render: (pages: ReadonlyArray<CaptionPage>, selected: number | null, editing: boolean) => void
  /** Marks the word being spoken. */
  readonly markNow: (index: number | null) => void
}

/** Marks a line over the reading-speed or line-length limit, saying which and by how much. */
const flagReadability = (row: HTMLElement, page: CaptionPage, line: CaptionLine): void => {
  const reading = lineReading(page, line)
  const problems = [
    ...(reading.tooFast
      ? [`read at ${reading.charactersPerSecond.toFixed(1)} characters a second (over ${MAX_CHARACTERS_PER_SECOND}): give its page more time or fewer words`]
      : []),
    ...(reading.tooLong ? [`${reading.characters} characters long (over ${MAX_CHARACTERS_PER_LINE}): break it`] : [])
  ]
  if (problems.length === 0) return
  row.classList.add("hard-to-read")
  row.title = `This line is ${problems.join(", and ")}.`
}

export const transcriptView = (container: HTMLElement, on: TranscriptEvents): TranscriptView => {
  let chips: ReadonlyArray<HTMLElement> = []
  let now: number | null = null

  const indexOf = (target: EventTarget | null): number | null => {
    const chip = target instanceof Element ? target.closest<HTMLElement>("button.word") : null
    return chip === null ? null : Number(chip.dataset.index)
  }

  container.addEventListener("mousedown", (event) => {
    const index = indexOf(event.target)
    if (index === null) return
    // Selecting on mousedown, with the focus kept where it is, lets a word being edited be saved
    // before the transcript is drawn again; a click would land on a chip that no longer exists.
    event.preventDefault()
    on.select(index)
  })
  container.addEventListener("click", (event) => {
    const index = indexOf(event.target)
    // detail 0: Enter or Space on a focused chip (the mouse was handled on mousedown).
    if (index !== null && event.detail === 0) on.select(index)
    const time = event.target instanceof Element ? event.target.closest<HTMLElement>(".line-time") : null
    if (time !== null) on.seek(Number(time.dataset.start))
  })

  const editor = (text: string): HTMLInputElement => {
    const input = element("input", { id: "word-text" })
    input.type = "text"
    input.value = text
    input.setAttribute("aria-label", "Word")
    input.size = Math.max(4, text.length + 2)
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") on.finish(input.value, 0)
      else if (event.key === "Escape") on.finish(null, 0)
      else if (event.key === "Tab") on.finish(input.value, event.shiftKey ? -1 : 1)
      else return
      event.preventDefault()
    })
    input.addEventListener("input", () => {
      input.size = Math.max(4, input.value.length + 2)
    })
    // A chip drawn again in its place takes the input out of the page: that is no end of the edit.
    input.addEventListener("blur", () => {
      if (input.isConnected) on.finish(input.value, 0)
    })
    return input
  }

  return {
    render: (pages, selected, editing) => {
      let index = 0
      const built: Array<HTMLElement> = []
      let input: HTMLInputElement | null = null
      const pageNodes = pages.map((page) =>
        element("div", { className: "page" }, page.lines.map((line) => {
          const time = element("button", { className: "line-time", textContent: clockText(line.start), title: "Play from here" })
          time.type = "button"
          time.dataset.start = String(line.start)
          const words = line.words.map((word) => {
            const i = index++
            if (i === selected && editing) {
              input = editor(word.text)
              built.push(input)
              return input
            }
            const chip = element("button", { className: "word", id: `word-${i}`, textContent: word.text })
            chip.type = "button"
            chip.dataset.index = String(i)
            if (i === selected) chip.classList.add("selected")
            if (i === now) chip.classList.add("now")
            const titles: Array<string> = []
            if (word.emphasis === true) {
              chip.classList.add("emphasis")
              titles.push("Emphasised")
            }
            if (word.confidence !== undefined && word.confidence < LOW_CONFIDENCE) {
              chip.classList.add("unsure")
              titles.push(`The recogniser was unsure of this word (${Math.round(word.confidence * 100)}%): check it`)
            }
            if (titles.length > 0) chip.title = titles.join(". ")
            built.push(chip)
            return chip
          })
          const emoji = lineEmoji(line)
          const row = element("div", { className: "line" }, [
            time,
            element("div", { className: "line-words" }, words),
            ...(emoji === null ? [] : [element("span", { className: "line-emoji", textContent: emoji, title: "This line's emoji" })])
          ])
          flagReadability(row, page, line)
          return row
        })))
      chips = built
      container.replaceChildren(...(pageNodes.length > 0 ? pageNodes : [element("p", { className: "muted", textContent: "No words: nothing is spoken in this video." })]))
      const opened = input as HTMLInputElement | null
      if (opened !== null) {
        opened.focus()
        opened.select()
      } else if (selected !== null) {
        chips[selected]?.scrollIntoView({ block: "nearest" })
      }
    },
    markNow: (index) => {
      if (index === now) return
      if (now !== null) chips[now]?.classList.remove("now")
      now = index
      if (index !== null) chips[index]?.classList.add("now")
    }
  }
}
