// MediaEngine on the ffmpeg/ffprobe command-line tools (Debian's build: libx264, aac, libass).
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Clock, Config, Effect, Layer, Schema } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { MAX_DECODED_PIXELS, tooLargeToDecode } from "../../domain/picture-limits.ts"
import { type BurnRequest, MediaEngine, type MediaEngineShape, type ProbeResult, type WipeSamples } from "../../domain/ports/media-engine.ts"
import { type PixelBox, type TextRegion, wipeableBox } from "../../domain/text-regions.ts"
import { type Cut, keptSpans } from "../../domain/trim.ts"
import { assSubtitles, emojiSpots } from "./ass-subtitles.ts"
import { measureCaptionText } from "./caption-text-measure.ts"
import { assFilter } from "./caption-fonts.ts"
import { emojiOverlays } from "./emoji-overlays.ts"
import { framingFilters } from "./framing-filters.ts"
import { AAC_ARGS, lastError, progressLines, QUIET, spawnTool } from "./ffmpeg-process.ts"
import { samplingFilters } from "./onnx-text-detector.ts"
import { spanLoudness } from "./word-loudness.ts"
import { evenSizeBelow } from "../../domain/even-pixels.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const DEFAULT_X264_PRESET = "veryfast"

/** The video encoder settings of every render, exported so benchmarks encode exactly the same way. */
export const x264Args = (preset: string = DEFAULT_X264_PRESET): Array<string> => [
  "-c:v", "libx264", "-preset", preset, "-crf", "23", "-pix_fmt", "yuv420p"
]

/**
 * A clip's source is encoded once more before its render: near-transparent quality (CRF 16 against the
 * render's 23) at a fast preset, so the render's output is what decides the quality.
 */
const CUT_PRESET = "veryfast"
const CUT_CRF = 16

const FfprobeStream = Schema.Struct({
  index: Schema.Number,
  codec_type: Schema.optional(Schema.String),
  width: Schema.optional(Schema.Number),
  height: Schema.optional(Schema.Number),
  avg_frame_rate: Schema.optional(Schema.String),
  r_frame_rate: Schema.optional(Schema.String),
  duration: Schema.optional(Schema.String),
  disposition: Schema.optional(Schema.Struct({ attached_pic: Schema.optional(Schema.Number) })),
  tags: Schema.optional(Schema.Struct({ rotate: Schema.optional(Schema.String) })),
  side_data_list: Schema.optional(Schema.Array(Schema.Struct({ rotation: Schema.optional(Schema.Number) })))
})
type FfprobeStream = typeof FfprobeStream.Type

const FfprobeOutput = Schema.parseJson(
  Schema.Struct({
    streams: Schema.optionalWith(Schema.Array(FfprobeStream), { default: () => [] }),
    format: Schema.optional(Schema.Struct({ duration: Schema.optional(Schema.String), format_name: Schema.optional(Schema.String) }))
  })
)

const seconds = (value: string | undefined): number | undefined => {
  const n = value === undefined ? NaN : Number(value)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}

/** "30000/1001" -> 29.97; "0/0" (unknown) -> undefined. */
const rate = (value: string | undefined): number | undefined => {
  const [num, den] = (value ?? "").split("/").map(Number)
  if (num === undefined || den === undefined || !Number.isFinite(num) || !Number.isFinite(den) || den === 0 || num <= 0) {
    return undefined
  }
  return Math.round((num / den) * 1000) / 1000
}

const rotation = (stream: FfprobeStream): number =>
  stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? Number(stream.tags?.rotate ?? 0)

/** The demuxers of single pictures: image2 by file name, `png_pipe`, `jpeg_pipe`, `webp_pipe`... by content. */
const isStillFormat = (name: string): boolean => name === "image2" || name.endsWith("_pipe")

/** A decoder's refusal of a picture above -max_pixels (libavutil's imgutils), with the picture's size. */
const OVERSIZED = /Picture size (\d+)x(\d+) exceeds specified max pixel count/

/** Every decode is capped: a picture above the largest any kind may have is refused, not decoded. */
const MAX_PIXELS_ARGS = ["-max_pixels", String(MAX_DECODED_PIXELS)]

/** How long the sound takes to fade out before a cut and in after it: short enough to hear nothing, long enough for no click. */
const CUT_FADE_SECONDS = 0.01

/** ffmpeg refuses an expression of about 100 terms or more ("Cannot allocate memory"): each select takes this many cuts. */
const CUTS_PER_SELECT = 50

/**
 * Drops the frames inside the cuts and closes the gaps. Frames sit at k / frameRate and cuts on frame
 * boundaries: half a frame's slack keeps float rounding from taking one frame too many or too few. The
 * selects run in a chain before the timestamps are rewritten, so each sees the input's times.
 */
const cutPicture = (cuts: ReadonlyArray<Cut>, frameRate: number): ReadonlyArray<string> => {
  const half = 0.5 / frameRate
  const selects: Array<string> = []
  for (let i = 0; i < cuts.length; i += CUTS_PER_SELECT) {
    const inside = cuts.slice(i, i + CUTS_PER_SELECT).map((cut) => `gte(t,${(cut.start - half).toFixed(6)})*lt(t,${(cut.end - half).toFixed(6)})`)
    selects.push(`select='not(${inside.join("+")})'`)
  }
  return [...selects, "setpts=N/FRAME_RATE/TB"]
}

/**
 * The sound cut where the picture is: split once at every cut's start and end (asegment reads the sound
 * once; a trim per kept span would each read all of it), the kept pieces faded in and out and joined end
 * to end, the cut ones dropped.
 */
const cutSound = (cuts: ReadonlyArray<Cut>, durationSeconds: number): string => {
  const at = [...new Set(cuts.flatMap((cut) => [cut.start, cut.end]))].filter((t) => t > 0 && t < durationSeconds).sort((a, b) => a - b)
  const pieces = [0, ...at].map((start, i) => ({ start, end: at[i] ?? durationSeconds }))
  const kept = pieces.filter((piece) => !cuts.some((cut) => cut.start <= piece.start && piece.end <= cut.end))
  const chains = pieces.map((piece, i) => {
    if (!kept.includes(piece)) return `[s${i}]anullsink`
    const length = piece.end - piece.start
    const fade = Math.min(CUT_FADE_SECONDS, length / 2)
    return `[s${i}]asetpts=PTS-STARTPTS,afade=t=in:d=${fade.toFixed(4)},afade=t=out:st=${(length - fade).toFixed(6)}:d=${fade.toFixed(4)}[k${i}]`
  })
  const split = at.length === 0 ? "[0:a:0]anull[s0]" : `[0:a:0]asegment=timestamps=${at.map((t) => t.toFixed(6)).join("|")}${pieces.map((_, i) => `[s${i}]`).join("")}`
  const joined = `${pieces.flatMap((piece, i) => (kept.includes(piece) ? [`[k${i}]`] : [])).join("")}concat=n=${kept.length}:v=0:a=1[a]`
  return [split, ...chains, joined].join(";\n")
}

const MP3_ARGS = ["-c:a", "libmp3lame", "-q:a", "4", "-f", "mp3"]
/** Caption previews move at 15 frames a second: smooth enough to see an animation, small enough to list 24. */
const PREVIEW_FPS = 15
const MIX_RATE = 48_000
const MIX_SILENCE = `anullsrc=r=${MIX_RATE}:cl=stereo`

/** A cue in samples of the mix, with the input it plays. */
interface PlacedCue {
  readonly input: number
  readonly start: number
  readonly volume: number
}

/**
 * The cues on as few lanes as keep each lane's sounds apart (a cue joins the first lane whose last
 * sound has ended), each lane in time order. `lengths` are the inputs' lengths in samples.
 */
const lanesOf = (cues: ReadonlyArray<PlacedCue>, lengths: ReadonlyArray<number>): ReadonlyArray<ReadonlyArray<PlacedCue>> => {
  const lanes: Array<{ end: number; cues: Array<PlacedCue> }> = []
  for (const cue of [...cues].sort((a, b) => a.start - b.start)) {
    const end = cue.start + lengths[cue.input]!
    const lane = lanes.find((l) => l.end <= cue.start)
    if (lane === undefined) lanes.push({ end, cues: [cue] })
    else {
      lane.end = end
      lane.cues.push(cue)
    }
  }
  return lanes.map((lane) => lane.cues)
}

/**
 * The mix as a filter graph: each input decoded once and split among its cues; a lane is silence and
 * sounds joined end to end, each sound padded to the start of the next, so every cue lands on its
 * exact sample; the lanes are summed (no level change) over exactly `samples` of silence. Summing a
 * few lanes instead of a delayed stream per cue makes 250 cues over four minutes mix several times faster.
 */
const mixGraph = (cues: ReadonlyArray<PlacedCue>, lengths: ReadonlyArray<number>, samples: number): string => {
  const chains = [`${MIX_SILENCE},atrim=end_sample=${samples}[base]`]
  const copies = lengths.map((_, input) => cues.filter((cue) => cue.input === input).length)
  const used = copies.map(() => 0)
  copies.forEach((count, input) => {
    if (count === 0) return
    // Timestamps by sample count: a lane's sounds follow each other however their files are stamped.
    const outputs = Array.from({ length: count }, (_, k) => `[in${input}.${k}]`).join("")
    chains.push(`[${input}:a:0]asetpts=N/SR/TB,aresample=${MIX_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,asplit=${count}${outputs}`)
  })
  const lanes = lanesOf(cues, lengths).map((lane, l) => {
    const parts: Array<string> = []
    if (lane[0]!.start > 0) {
      chains.push(`${MIX_SILENCE},atrim=end_sample=${lane[0]!.start}[lane${l}.lead]`)
      parts.push(`[lane${l}.lead]`)
    }
    lane.forEach((cue, k) => {
      const next = lane[k + 1]
      const filters = [cue.volume === 1 ? "anull" : `volume=${cue.volume}`]
      if (next !== undefined) filters.push(`apad,atrim=end_sample=${next.start - cue.start}`)
      chains.push(`[in${cue.input}.${used[cue.input]!++}]${filters.join(",")}[lane${l}.${k}]`)
      parts.push(`[lane${l}.${k}]`)
    })
    if (parts.length === 1) return parts[0]!
    chains.push(`${parts.join("")}concat=n=${parts.length}:v=0:a=1[lane${l}]`)
    return `[lane${l}]`
  })
  chains.push(`[base]${lanes.join("")}amix=inputs=${lanes.length + 1}:duration=first:normalize=0[mix]`)
  return chains.join(";\n")
}

/** Mean luma difference (0..255) under which two views of the same pixels are the same picture, coding noise aside. */
const STILL_DIFFERENCE = 2.5
/** The border of a region's box, in pixels, compared while its text is shown: clean, as boxes are padded around text. */
const RING = 4

/** The picture every wipe works on: 8-bit 4:2:0 (what the encode writes), cut to even sides. */
const wipePicture = (width: number, height: number): string =>
  width % 2 === 0 && height % 2 === 0 ? "format=yuv420p" : `format=yuv420p,crop=${evenSizeBelow(width)}:${evenSizeBelow(height)}:0:0`

/**
 * A region that may be filled from a clean frame: the frames read to decide, in order: the one shown
 * when the span starts and the one shown when it ends (its text absent from both), and up to three
 * while it is shown.
 */
interface FillCandidate {
  readonly region: TextRegion
  readonly frames: ReadonlyArray<number>
}

const fillCandidate = (region: TextRegion, durationSeconds: number, frameRate: number): FillCandidate | null => {
  const frameAt = (t: number) => Math.floor(t * frameRate + 1e-6)
  const { startSeconds: start, endSeconds: end } = region
  // Text already there when the video starts, or still there when it ends, has no clean frame on one side.
  if (!(frameRate > 0) || start <= 0 || end >= durationSeconds - 1 / frameRate) return null
  const frames = [...new Set([start, start + (end - start) / 4, (start + end) / 2, start + (3 * (end - start)) / 4, end].map(frameAt))]
  // A span within one frame has no frame before and after it to compare.
  return frames.length < 2 ? null : { region, frames }
}

/** Mean absolute luma difference of two yuv420p crops of `box`'s size, over the whole box or only its border. */
const lumaDifference = (a: Uint8Array, b: Uint8Array, box: PixelBox, borderOnly: boolean): number => {
  let sum = 0
  let count = 0
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      if (borderOnly && x >= RING && x < box.width - RING && y >= RING && y < box.height - RING) continue
      const i = y * box.width + x
      sum += Math.abs(a[i]! - b[i]!)
      count++
    }
  }
  return sum / count
}

/**
 * The clean patch for a candidate, from its frames as read (yuv420p crops of its box, in order), when
 * the background there holds still: the box is the same picture before and after the span, and its
 * border stays so while the text is shown. Otherwise null: a frozen patch over a moving picture would show.
 */
const stillPatch = (crops: Uint8Array, candidate: FillCandidate): Uint8Array | null => {
  const { box } = candidate.region
  const size = (box.width * box.height * 3) / 2
  if (crops.length !== size * candidate.frames.length) return null
  const frames = candidate.frames.map((_, i) => crops.subarray(i * size, (i + 1) * size))
  const before = frames[0]!
  const still =
    lumaDifference(before, frames[frames.length - 1]!, box, false) <= STILL_DIFFERENCE &&
    frames.slice(1, -1).every((during) => lumaDifference(before, during, box, true) <= STILL_DIFFERENCE)
  return still ? before : null
}

/** A graph that decodes the video once and sends each candidate's frames, cropped to its box, to [crop<k>]. */
const aroundGraph = (picture: string, candidates: ReadonlyArray<FillCandidate>): string =>
  [
    `[0:v:0]${picture},split=${candidates.length}${candidates.map((_, k) => `[around${k}]`).join("")}`,
    ...candidates.map(({ region: { box }, frames }, k) =>
      `[around${k}]select='${frames.map((n) => `eq(n,${n})`).join("+")}',crop=${box.width}:${box.height}:${box.x}:${box.y}[crop${k}]`
    )
  ].join(";\n")

/**
 * The chains from the wiped picture [sampled] to the frames the check reads [samples]: `perSecond` a
 * second, cut to the strips and stacked when there are strips, scaled as the detector samples (rgb24 as
 * it reads them).
 */
const samplesChains = ({ height, perSecond, strips, width }: WipeSamples): ReadonlyArray<string> => {
  const [rate, scale] = samplingFilters(perSecond, width, height)
  if (strips === undefined) return [`[sampled]${rate},${scale},format=rgb24[samples]`]
  const cut = strips.strips.map(({ box }) => `crop=${box.width}:${box.height}:${box.x}:${box.y},pad=${strips.width}:${box.height}:0:0:black`)
  if (cut.length === 1) return [`[sampled]${rate},${cut[0]},${scale},format=rgb24[samples]`]
  return [
    `[sampled]${rate},split=${cut.length}${cut.map((_, k) => `[strip${k}]`).join("")}`,
    ...cut.map((filters, k) => `[strip${k}]${filters}[cut${k}]`),
    `${cut.map((_, k) => `[cut${k}]`).join("")}vstack=inputs=${cut.length},${scale},format=rgb24[samples]`
  ]
}

/**
 * The wipe as a filter graph on input 0, whose picture comes out as [v]: regions with a clean patch
 * (inputs 1.., in order) get it laid over them while shown; then delogo fills the others from the pixels
 * around their boxes, watermarks first so that a caption crossing one is filled from wiped pixels.
 * A region spanning the whole video is wiped on every frame, without a time test. With `samples`, the
 * wiped picture also goes to [samples] (`samplesChains`).
 */
const wipeGraph = (
  picture: string,
  patched: ReadonlyArray<TextRegion>,
  interpolated: ReadonlyArray<TextRegion>,
  durationSeconds: number,
  samples: WipeSamples | undefined
): string => {
  const when = (region: TextRegion) =>
    region.startSeconds <= 0 && region.endSeconds >= durationSeconds ? "" : `:enable='between(t,${region.startSeconds},${region.endSeconds})'`
  const chains = [`[0:v:0]${picture}[v0]`]
  patched.forEach((region, k) => {
    chains.push(`[v${k}][${k + 1}:v]overlay=x=${region.box.x}:y=${region.box.y}${when(region)}[v${k + 1}]`)
  })
  const delogos = [...interpolated]
    .sort((a, b) => Number(a.kind === "caption") - Number(b.kind === "caption"))
    .map((region) => `delogo=x=${region.box.x}:y=${region.box.y}:w=${region.box.width}:h=${region.box.height}${when(region)}`)
  const wiped = `[v${patched.length}]${delogos.length === 0 ? "null" : delogos.join(",")}`
  if (samples === undefined) chains.push(`${wiped}[v]`)
  else chains.push(`${wiped},split=2[v][sampled]`, ...samplesChains(samples))
  return chains.join(";\n")
}

export const FfmpegEngineLive = Layer.effect(
  MediaEngine,
  Effect.gen(function* () {
    const ffmpeg = yield* Config.string("FFMPEG_PATH").pipe(Config.withDefault("ffmpeg"))
    const ffprobe = yield* Config.string("FFPROBE_PATH").pipe(Config.withDefault("ffprobe"))
    const preset = yield* Config.string("X264_PRESET").pipe(Config.withDefault(DEFAULT_X264_PRESET))

    const run = (binary: string, args: ReadonlyArray<string>, onLine?: (line: string) => void) =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const result = yield* spawnTool(binary, args, onLine)
        const ended = yield* Clock.currentTimeMillis
        yield* Effect.logDebug(`${binary} exited with ${result.code}`).pipe(
          Effect.annotateLogs({ tool: binary, seconds: (ended - started) / 1000, args: args.join(" ") })
        )
        return result
      })

    /** ffprobe's facts and the stream the picture is in (ffprobe decodes its first frame, capped). */
    const readFacts = (path: string) =>
      Effect.gen(function* () {
        const result = yield* run(ffprobe, [
          "-v", "error", ...MAX_PIXELS_ARGS, "-print_format", "json", "-show_format", "-show_streams", path
        ])
        const oversized = OVERSIZED.exec(result.stderr)
        if (oversized !== null) return yield* new WorkFailed({ message: tooLargeToDecode(Number(oversized[1]), Number(oversized[2])) })
        const notMedia = (reason: string) =>
          new WorkFailed({ message: `The source is not a media file ffprobe can read: ${reason}` })
        if (result.code !== 0) return yield* notMedia(lastError(result.stderr, path))
        const out = yield* Schema.decodeUnknown(FfprobeOutput)(result.stdout).pipe(Effect.orDie)
        const video = out.streams.find((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1)
        const hasAudio = out.streams.some((s) => s.codec_type === "audio")
        if (video === undefined && !hasAudio) return yield* notMedia("it has no video or audio stream")
        const { size } = yield* Effect.promise(() => stat(path))
        const turned = video !== undefined && Math.abs(Math.round(rotation(video))) % 180 === 90
        const width = video?.width ?? 0
        const height = video?.height ?? 0
        const facts: ProbeResult = {
          bytes: size,
          durationSeconds:
            seconds(out.format?.duration) ??
            Math.max(0, ...out.streams.map((s) => seconds(s.duration) ?? 0)),
          width: turned ? height : width,
          height: turned ? width : height,
          frameRate: video === undefined ? 0 : (rate(video.avg_frame_rate) ?? rate(video.r_frame_rate) ?? 0),
          hasVideo: video !== undefined,
          hasAudio,
          still: video !== undefined && isStillFormat(out.format?.format_name ?? "")
        }
        return { facts, videoStream: video?.index ?? null }
      })

    // ffprobe reads a container's headers, which may describe a stream that does not decode.
    const probe = (path: string) =>
      Effect.gen(function* () {
        const { facts, videoStream } = yield* readFacts(path)
        if (videoStream === null) return facts
        const result = yield* run(ffmpeg, [
          ...QUIET, ...MAX_PIXELS_ARGS, "-i", path, "-map", `0:${videoStream}`, "-frames:v", "1", "-f", "framecrc", "-"
        ])
        const decoded = result.code === 0 && result.stdout.split("\n").some((line) => line !== "" && !line.startsWith("#"))
        if (!decoded) {
          return yield* new WorkFailed({
            message: `The picture in the file cannot be decoded (${lastError(result.stderr, path)}); re-encode it (H.264 in MP4 plays everywhere) and send it again.`
          })
        }
        return facts
      }).pipe(withSpan("FfmpegEngine.probe", { attributes: { path } }))

    const extractAudio: MediaEngineShape["extractAudio"] = (input, outputWav, range) =>
      Effect.gen(function* () {
        const seek = range === undefined ? [] : ["-ss", range.start.toFixed(3), "-t", Math.max(0, range.end - range.start).toFixed(3)]
        const result = yield* run(ffmpeg, [
          ...QUIET, ...seek, "-i", input, "-map", "0:a:0", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", outputWav
        ])
        if (result.code === 0) return
        const reason = lastError(result.stderr, input)
        return yield* new WorkFailed({
          message: reason.includes("matches no streams")
            ? "The source has no audio track to transcribe."
            : `Extracting the audio failed: ${reason}`
        })
      }).pipe(withSpan("FfmpegEngine.extractAudio", { attributes: { input } }))

    const encodeMp3 = (inputWav: string, outputMp3: string) =>
      Effect.gen(function* () {
        const result = yield* run(ffmpeg, [...QUIET, "-i", inputWav, ...MP3_ARGS, outputMp3])
        if (result.code !== 0) return yield* new WorkFailed({ message: `Encoding the speech as MP3 failed: ${lastError(result.stderr, inputWav)}` })
      }).pipe(withSpan("FfmpegEngine.encodeMp3", { attributes: { inputWav } }))

    const mixAudio: MediaEngineShape["mixAudio"] = (request) =>
      Effect.gen(function* () {
        const samples = Math.max(1, Math.round(request.durationSeconds * MIX_RATE))
        // A cue before 0 starts at 0; one at or after the end is not heard.
        const playing = request.cues
          .map((cue) => ({ ...cue, start: Math.max(0, Math.round(cue.atSeconds * MIX_RATE)) }))
          .filter((cue) => cue.start < samples)
        const paths = [...new Set(playing.map((cue) => cue.path))]
        const lengths = yield* Effect.forEach(paths, (path) =>
          probe(path).pipe(
            Effect.filterOrFail((facts) => facts.hasAudio, () => new WorkFailed({ message: "it has no audio stream" })),
            Effect.map((facts) => Math.ceil(facts.durationSeconds * MIX_RATE)),
            Effect.mapError((e) => new WorkFailed({ message: `The sound ${path} cannot be mixed: ${e.message}` }))
          ), { concurrency: 4 })
        const cues = playing.map((cue) => ({ input: paths.indexOf(cue.path), start: cue.start, volume: cue.volume }))
        const script = `${request.outputMp3}.mix.txt`
        yield* Effect.promise(() => writeFile(script, mixGraph(cues, lengths, samples)))
        const result = yield* run(ffmpeg, [
          ...QUIET, ...paths.flatMap((path) => ["-i", path]), "-filter_complex_script", script, "-map", "[mix]", ...MP3_ARGS, request.outputMp3
        ]).pipe(Effect.ensuring(Effect.promise(() => rm(script, { force: true }))))
        if (result.code !== 0) return yield* new WorkFailed({ message: `Mixing the audio failed: ${lastError(result.stderr)}` })
      }).pipe(withSpan("FfmpegEngine.mixAudio", { attributes: { cues: request.cues.length, durationSeconds: request.durationSeconds } }))

    const burnCaptions = (request: BurnRequest) =>
      Effect.gen(function* () {
        const { facts } = yield* readFacts(request.input)
        const cuts = request.cuts ?? []
        const kept = keptSpans(cuts, facts.durationSeconds)
        const assPath = `${request.output}.ass`
        const track = { ...request.captions, width: request.width, height: request.height, format: request.format, measure: measureCaptionText }
        const emoji = emojiOverlays(emojiSpots(track), `${request.output}.`, request.frameRate)
        const framed = request.framing === undefined ? null : framingFilters(request.framing, `${request.output}.`, request.frameRate, facts.durationSeconds)
        const files = [...(emoji?.files ?? []), ...(framed?.files ?? [])]
        yield* Effect.promise(() => Promise.all([writeFile(assPath, assSubtitles(track)), ...files.map((file) => writeFile(file.path, file.content))]))
        // A framing crops and scales on the source's own timeline, before the cuts and the frame rate.
        const head = framed?.chains("0:v:0", "framed") ?? []
        const source = framed === null ? "0:v:0" : "framed"
        const picture = [...(framed === null ? [`scale=${evenSizeBelow(request.width)}:${evenSizeBelow(request.height)}`] : []), "setsar=1", `fps=${request.frameRate}`]
        if (cuts.length > 0) picture.push(...cutPicture(cuts, request.frameRate))
        // Greenscreen keeps the export's timing and sound (the cuts included) and only paints its picture over.
        if (request.format === "greenscreen") picture.push("drawbox=x=0:y=0:w=iw:h=ih:color=0x00FF00:t=fill")
        const sound = cuts.length > 0 && facts.hasAudio ? cutSound(cuts, facts.durationSeconds) : null
        const graph = `${request.output}.graph`
        // The emoji go under the captions (they never overlap): ass then draws on the overlay's own copy of the frame.
        const pictureChains = [
          ...head,
          ...(emoji === null
            ? [`[${source}]${[...picture, assFilter(assPath)].join(",")}[v]`]
            : [`[${source}]${picture.join(",")}[picture]`, ...emoji.chains("picture", (k) => k + 1, "emojis"), `[emojis]${assFilter(assPath)}[v]`])
        ]
        yield* Effect.promise(() => writeFile(graph, [...pictureChains, ...(sound === null ? [] : [sound])].join(";\n")))
        const onLine = progressLines(kept.reduce((sum, span) => sum + span.end - span.start, 0), request.onProgress)
        const result = yield* run(
          ffmpeg,
          [
            ...QUIET, "-nostats", "-progress", "pipe:1",
            "-i", request.input,
            ...(emoji?.inputs.flat() ?? []),
            // A script: a long talk's cuts make a graph longer than a command line may be.
            "-filter_complex_script", graph,
            "-map", "[v]", "-map", sound === null ? "0:a:0?" : "[a]",
            ...x264Args(preset), ...AAC_ARGS,
            "-movflags", "+faststart",
            request.output
          ],
          onLine
        )
        if (result.code !== 0) {
          return yield* new WorkFailed({ message: `Burning the captions failed: ${lastError(result.stderr, request.input)}` })
        }
      }).pipe(
        withSpan("FfmpegEngine.burnCaptions", {
          attributes: { input: request.input, format: request.format, frameRate: request.frameRate }
        })
      )

    const wipeRegions: MediaEngineShape["wipeRegions"] = (request) =>
      Effect.gen(function* () {
        const { facts } = yield* readFacts(request.input)
        if (!facts.hasVideo) return yield* new WorkFailed({ message: "The source has no picture to wipe text from." })
        const picture = wipePicture(facts.width, facts.height)
        const regions = request.regions.flatMap((region) => {
          const box = wipeableBox(region.box, facts.width, facts.height)
          return box === null || region.endSeconds < region.startSeconds ? [] : [{ ...region, box }]
        })
        const work = yield* Effect.promise(() => mkdtemp(`${request.output}.wipe-`))
        const wipe = Effect.gen(function* () {
          // Where the picture holds still around a caption, the clean frame before it fills it exactly;
          // delogo's interpolation smears over texture.
          const candidates = regions.flatMap((region) => fillCandidate(region, facts.durationSeconds, facts.frameRate) ?? [])
          const patches: Array<{ readonly region: TextRegion; readonly file: string }> = []
          if (candidates.length > 0) {
            const crops = candidates.map((_, k) => join(work, `around-${k}.yuv`))
            const script = join(work, "around.txt")
            yield* Effect.promise(() => writeFile(script, aroundGraph(picture, candidates)))
            const read = yield* run(ffmpeg, [
              ...QUIET, "-i", request.input, "-filter_complex_script", script,
              ...crops.flatMap((file, k) => ["-map", `[crop${k}]`, "-fps_mode", "passthrough", "-f", "rawvideo", file])
            ])
            if (read.code !== 0) {
              return yield* new WorkFailed({ message: `Reading the frames around the text failed: ${lastError(read.stderr, request.input)}` })
            }
            yield* Effect.forEach(candidates, (candidate, k) =>
              Effect.promise(async () => {
                const patch = stillPatch(await readFile(crops[k]!), candidate)
                if (patch === null) return
                const file = join(work, `patch-${k}.yuv`)
                await writeFile(file, patch)
                patches.push({ region: candidate.region, file })
              }))
          }
          const patched = patches.map((patch) => patch.region)
          const interpolated = regions.filter((region) => !patched.includes(region))
          const script = join(work, "wipe.txt")
          const { samples } = request
          yield* Effect.promise(() => writeFile(script, wipeGraph(picture, patched, interpolated, facts.durationSeconds, samples)))
          const result = yield* run(
            ffmpeg,
            [
              ...QUIET, "-nostats", "-progress", "pipe:1",
              "-i", request.input,
              ...patches.flatMap(({ region: { box }, file }) => [
                "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${box.width}x${box.height}`, "-i", file
              ]),
              "-filter_complex_script", script,
              "-map", "[v]", "-map", "0:a?",
              // Every frame kept with its timestamp: same frames, rate and length as the source.
              "-fps_mode", "passthrough",
              ...x264Args(preset), "-c:a", "copy",
              "-movflags", "+faststart",
              request.output,
              // FFV1 keeps the rgb24 frames exactly (as bgr0), in a fraction of the raw size.
              ...(samples === undefined ? [] : ["-map", "[samples]", "-fps_mode", "passthrough", "-c:v", "ffv1", "-f", "nut", samples.output])
            ],
            progressLines(facts.durationSeconds, request.onProgress)
          )
          if (result.code !== 0) {
            return yield* new WorkFailed({ message: `Wiping the text failed: ${lastError(result.stderr, request.input)}` })
          }
          yield* Effect.annotateCurrentSpan({ patched: patched.length, interpolated: interpolated.length })
        })
        yield* wipe.pipe(Effect.ensuring(Effect.promise(() => rm(work, { recursive: true, force: true }))))
      }).pipe(withSpan("FfmpegEngine.wipeRegions", { attributes: { input: request.input, regions: request.regions.length } }))

    const cutSpan: MediaEngineShape["cutSpan"] = (input, output, range) =>
      Effect.gen(function* () {
        // Seeking before the input decodes from the keyframe before and drops frames up to `start`: exact, and fast.
        const result = yield* run(ffmpeg, [
          ...QUIET, "-ss", range.start.toFixed(3), "-i", input, "-t", Math.max(0, range.end - range.start).toFixed(3),
          "-map", "0:v:0?", "-map", "0:a:0", "-c:v", "libx264", "-preset", CUT_PRESET, "-crf", String(CUT_CRF), "-pix_fmt", "yuv420p",
          ...AAC_ARGS, "-movflags", "+faststart", output
        ])
        if (result.code !== 0) return yield* new WorkFailed({ message: `Cutting the clip failed: ${lastError(result.stderr, input)}` })
      }).pipe(withSpan("FfmpegEngine.cutSpan", { attributes: { input, start: range.start, end: range.end } }))

    const thumbnail = (input: string, outputJpg: string, atSeconds: number) =>
      Effect.gen(function* () {
        const { durationSeconds } = (yield* readFacts(input)).facts
        // Seeking to the very end finds no frame, so stay a little inside the video.
        const at = Math.min(Math.max(0, atSeconds), Math.max(0, durationSeconds - 0.25))
        const result = yield* run(ffmpeg, [
          ...QUIET, "-ss", at.toFixed(3), "-i", input,
          "-frames:v", "1", "-vf", "scale=w=min(720\\,iw):h=-2", "-q:v", "3", "-update", "1", outputJpg
        ])
        if (result.code !== 0) {
          return yield* new WorkFailed({ message: `Making the thumbnail failed: ${lastError(result.stderr, input)}` })
        }
        const written = yield* Effect.promise(() => stat(outputJpg).then((s) => s.size, () => 0))
        if (written === 0) return yield* new WorkFailed({ message: `The video has no frame at ${at.toFixed(2)} s for a thumbnail.` })
      }).pipe(withSpan("FfmpegEngine.thumbnail", { attributes: { input, atSeconds } }))

    const captionPreview: MediaEngineShape["captionPreview"] = (request) =>
      Effect.gen(function* () {
        const { width, height, seconds, outputWebp } = request
        const assPath = `${outputWebp}.ass`
        yield* Effect.promise(() => writeFile(assPath, assSubtitles({ ...request.captions, width, height, format: "standard" })))
        const result = yield* run(ffmpeg, [
          ...QUIET,
          "-f", "lavfi", "-i", `${request.background}:r=${PREVIEW_FPS}:d=${seconds}`,
          "-vf", assFilter(assPath),
          "-c:v", "libwebp_anim", "-loop", "0", "-quality", "70", "-compression_level", "4",
          outputWebp
        ]).pipe(Effect.ensuring(Effect.promise(() => rm(assPath, { force: true }))))
        if (result.code !== 0) return yield* new WorkFailed({ message: `Drawing the caption preview failed: ${lastError(result.stderr)}` })
      }).pipe(withSpan("FfmpegEngine.captionPreview", { attributes: { width: request.width, height: request.height } }))

    const spanLoudnessOf: MediaEngineShape["spanLoudness"] = (wavPath, spans) =>
      Effect.tryPromise({
        try: () => spanLoudness(wavPath, spans),
        catch: (error) => new WorkFailed({ message: `Measuring the words' loudness failed: ${error instanceof Error ? error.message : String(error)}` })
      }).pipe(withSpan("FfmpegEngine.spanLoudness", { attributes: { spans: spans.length } }))

    return MediaEngine.of({ probe, extractAudio, cutSpan, encodeMp3, mixAudio, burnCaptions, wipeRegions, thumbnail, captionPreview, spanLoudness: spanLoudnessOf })
  })
)
