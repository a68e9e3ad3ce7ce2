// A script the user brings for a caption video: plain text, SRT or WebVTT. Its words are what the
// captions show, exactly as written; the cue times of SRT and VTT are anchors for aligning them.
import { textWords } from "./spoken-words.ts"

/** About two hours of speech; the API caps the field at this many characters. */
export const MAX_TRANSCRIPT_CHARACTERS = 100_000

/** A piece of the script and, for SRT and VTT, the time it is said in (seconds). */
export interface ScriptCue {
  readonly words: ReadonlyArray<string>
  readonly start: number | null
  readonly end: number | null
}

export type TranscriptParse =
  | { readonly ok: true; readonly format: "plain" | "srt" | "vtt"; readonly cues: ReadonlyArray<ScriptCue> }
  | { readonly ok: false; readonly reason: string }

const refuse = (line: number, reason: string): TranscriptParse => ({ ok: false, reason: `line ${line}: ${reason}` })

/** `00:01:02,500`, `01:02.500`, `1:02:03.5`: hours optional, the fraction's separator a comma or a point. */
const TIME = String.raw`(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?`
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}(?:\s.*)?$`)

const seconds = (h: string | undefined, m: string, s: string, fraction: string | undefined): number =>
  Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(`0.${fraction ?? "0"}`)

/** Markup a cue may carry that is not spoken: `<i>`, `<c.yellow>`, `<00:01.000>`, `{\an8}`, entities. */
const cueText = (line: string): string =>
  line
    .replace(/<[^>]*>/g, "")
    .replace(/\{\\[^}]*\}/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")

/** Cue blocks: runs of non-blank lines with the 1-based number of their first line. */
const blocks = (lines: ReadonlyArray<string>) => {
  const found: Array<{ readonly first: number; readonly lines: ReadonlyArray<string> }> = []
  let current: Array<string> = []
  let first = 0
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      if (current.length > 0) found.push({ first, lines: current })
      current = []
    } else {
      if (current.length === 0) first = i + 1
      current.push(line)
    }
  })
  if (current.length > 0) found.push({ first, lines: current })
  return found
}

const parseCues = (lines: ReadonlyArray<string>, format: "srt" | "vtt"): TranscriptParse => {
  const cues: Array<ScriptCue> = []
  const all = blocks(lines)
  // VTT's header block (WEBVTT and its metadata) says nothing to align.
  for (const block of format === "vtt" ? all.slice(1) : all) {
    const head = block.lines[0]!.trim()
    if (format === "vtt" && /^(NOTE|STYLE|REGION)(\s|$)/.test(head)) continue
    // A cue may open with its number (SRT) or an identifier (VTT) before the timing line.
    const timingAt = block.lines.findIndex((line) => line.includes("-->"))
    if (timingAt < 0 || timingAt > 1) {
      return refuse(block.first, `expected a timing line such as \`00:00:01,000 --> 00:00:02,500\`, found \`${head.slice(0, 60)}\``)
    }
    const lineNumber = block.first + timingAt
    const timing = TIMING.exec(block.lines[timingAt]!)
    if (timing === null) return refuse(lineNumber, `the timing \`${block.lines[timingAt]!.trim().slice(0, 60)}\` is not \`start --> end\` in hh:mm:ss,mmm`)
    const [, h1, m1, s1, f1, h2, m2, s2, f2] = timing
    const start = seconds(h1, m1!, s1!, f1)
    const end = seconds(h2, m2!, s2!, f2)
    if (Number(s1) > 59 || Number(s2) > 59 || Number(m1) > 59 || Number(m2) > 59) return refuse(lineNumber, "minutes and seconds run to 59")
    if (end <= start) return refuse(lineNumber, "the cue ends before it starts")
    const previous = cues.at(-1)
    if (previous !== undefined && previous.start !== null && start < previous.start) {
      return refuse(lineNumber, "the cue starts before the one above it: cues must be in time order")
    }
    const words = textWords(block.lines.slice(timingAt + 1).map(cueText).join(" ")).map((w) => w.text)
    if (words.length > 0) cues.push({ words, start, end })
  }
  return cues.length === 0 ? { ok: false, reason: "the file has no cue with words" } : { ok: true, format, cues }
}

/**
 * Reads a transcript: WebVTT when it opens with `WEBVTT`, SRT when a line holds `-->`, else plain text
 * (one cue, no times). A refusal names the line and what is wrong there.
 */
export const parseTranscript = (text: string): TranscriptParse => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)
  if (/^WEBVTT(\s|$)/.test(lines[0] ?? "")) return parseCues(lines, "vtt")
  if (lines.some((line) => /^\s*\S.*-->/.test(line))) return parseCues(lines, "srt")
  const words = textWords(text).map((w) => w.text)
  return words.length === 0 ? { ok: false, reason: "the transcript has no words" } : { ok: true, format: "plain", cues: [{ words, start: null, end: null }] }
}
