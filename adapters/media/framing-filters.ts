// A framing as ffmpeg filters, at the head of the export's graph (on the source's own timeline, before
// any cut): each window a crop that a sendcmd script moves frame by frame along its path (the script
// has lines only where the window moves), scaled up to the output; a split stacks two; fit letterboxes
// the whole picture over a blurred, enlarged copy of itself.
import { type Framing, windowAt, windowPlaces } from "../../domain/reframe.ts"
import { filterValue } from "./ffmpeg-process.ts"
import { evenSize } from "../../domain/even-pixels.ts"

/** The blurred background is drawn this many times smaller than the output, then enlarged: the blur costs little and looks the same. */
const BACKGROUND_SHRINK = 12

export interface FramingFilters {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string }>
  /** The chains taking the picture labelled `from` to the output's size, labelled `out`. */
  readonly chains: (from: string, out: string) => ReadonlyArray<string>
}

/** The sendcmd lines moving window `name` along `path`: one a frame (at `frameRate`) whose place differs from the frame before. */
const pathCommands = (framing: Framing, p: number, frameRate: number, durationSeconds: number): Array<string> => {
  const path = framing.paths[p] ?? []
  const lines: Array<string> = []
  let last = windowAt(path, 0)
  const frames = Math.ceil(durationSeconds * frameRate)
  for (let f = 1; f <= frames; f++) {
    const seconds = f / frameRate
    const place = windowAt(path, seconds)
    const at = (seconds - 0.5 / frameRate).toFixed(6)
    if (place.x !== last.x) lines.push(`${at} crop@window${p} x ${place.x};`)
    if (place.y !== last.y) lines.push(`${at} crop@window${p} y ${place.y};`)
    last = place
  }
  return lines
}

export const framingFilters = (framing: Framing, prefix: string, frameRate: number, durationSeconds: number): FramingFilters => {
  const { width, height, crop } = framing
  if (framing.mode === "fit") {
    const [w, h] = [evenSize(width / BACKGROUND_SHRINK), evenSize(height / BACKGROUND_SHRINK)]
    return {
      files: [],
      chains: (from, out) => [
        `[${from}]split=2[fitback][fitfront]`,
        `[fitback]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},boxblur=2:2,scale=${width}:${height}[fitblur]`,
        `[fitfront]scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1[fitpicture]`,
        `[fitblur][fitpicture]overlay=(W-w)/2:(H-h)/2[${out}]`
      ]
    }
  }
  const script = `${prefix}framing-commands.txt`
  const commands = framing.paths.flatMap((_, p) => pathCommands(framing, p, frameRate, durationSeconds))
  const files = commands.length === 0 ? [] : [{ path: script, content: commands.join("\n") + "\n" }]
  const sendcmd = commands.length === 0 ? "" : `sendcmd=f=${filterValue(script)},`
  const places = windowPlaces(framing)
  const window = (p: number) => {
    const start = windowAt(framing.paths[p] ?? [], 0)
    const place = places[p] ?? { width, height }
    return `crop@window${p}=${crop.width}:${crop.height}:${start.x}:${start.y},scale=${place.width}:${place.height}`
  }
  if (framing.mode === "split") {
    return {
      files,
      chains: (from, out) => [
        `[${from}]${sendcmd}split=2[window0][window1]`,
        `[window0]${window(0)}[top]`,
        `[window1]${window(1)}[bottom]`,
        `[top][bottom]vstack[${out}]`
      ]
    }
  }
  return { files, chains: (from, out) => [`[${from}]${sendcmd}${window(0)}[${out}]`] }
}
