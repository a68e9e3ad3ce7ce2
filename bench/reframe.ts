// What reframing costs, on a 60 s 1920x1080 30 fps talk (festival speech, a head moving to and fro over
// a moving test picture) made a 9:16 short:
//   (a) plain ffmpeg re-encode of the output: the render's picture chain without the captions (the framing the
//       service planned: its windows, moved by sendcmd, scaled to 1080x1920), same x264/aac/faststart. Where
//       the window looks changes what the encoder works on, so a fixed middle window is printed beside it.
//   (f) finding the faces and scene changes alone (FaceApiFinderLive), against (a): target under 20%
//   (f2) the same on a two-person talk (two heads side by side, whose mouths are measured on every sample
//        to tell who speaks), against the plain re-encode of its middle window
//   (c) the real service: POST /v1/caption-videos with reframe face and render until completed, against (a): target 1.5x
//   (c0) the same caption video without reframe (at the source's 1920x1080), to show what reframing adds to the pipeline
// Beside (a) and (c), the CPU time each took (the service's with the ffmpeg and recogniser runs it waited for),
// and what (c)/(a) would be were every core busy throughout (c): the least this machine allows.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { FaceApiFinderLive } from "../adapters/media/face-api-finder.ts"
import { x264Args } from "../adapters/media/ffmpeg-engine.ts"
import { framingFilters } from "../adapters/media/framing-filters.ts"
import { FaceFinder } from "../domain/ports/face-finder.ts"
import type { Framing } from "../domain/reframe.ts"
import { speak } from "../test/support/festival.ts"
import { pipeline, SCRIPT, stepTimings } from "./caption-render.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { withCpuOf } from "./process-cpu.ts"
import { startService } from "./service-process.ts"

const run = promisify(execFile)
const require = createRequire(import.meta.url)

const BENCH = "reframe"
const [WIDTH, HEIGHT, FPS, SECONDS] = [1920, 1080, 30, 60]

const seconds = (ms: number) => ms / 1000
const timed = async <A>(work: () => Promise<A>): Promise<{ seconds: number; value: A }> => {
  const started = performance.now()
  const value = await work()
  return { seconds: seconds(performance.now() - started), value }
}

const demoPhoto = (name: string) => join(dirname(require.resolve("@vladmandic/face-api/package.json")), "demo", name)

/**
 * A talk over testsrc2 with festival speech: `heads` are the photos' inputs 1.., placed by `overlays` into [v].
 * The test picture keeps moving (the encoder's work) but at a third of its saturation: at full saturation
 * its colour bars are what the tiny detector takes for faces (the finder drops them, and then finds the
 * heads on fewer samples), which no camera films.
 */
const makeSource = async (dir: string, name: string, photos: ReadonlyArray<string>, overlays: string): Promise<string> => {
  const speech = await speak(SCRIPT, dir)
  const path = join(dir, name)
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `testsrc2=s=${WIDTH}x${HEIGHT}:r=${FPS},hue=s=0.3`,
    ...photos.flatMap((photo) => ["-i", demoPhoto(photo)]), "-i", speech.wavPath,
    "-filter_complex", `${overlays};[${photos.length + 1}:a]apad[a]`,
    "-map", "[v]", "-map", "[a]", "-t", String(SECONDS),
    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
    path
  ])
  return path
}

/**
 * The talk: a head (from @vladmandic/face-api's demo photos) a third of the picture high over testsrc2,
 * sitting still and shifting to a new place every 12 s, as a speaker does.
 */
const makeTalk = (dir: string): Promise<string> =>
  makeSource(dir, "talk.mp4", ["sample2.jpg"], "[1:v]crop=340:420:1372:70,scale=-2:380,loop=-1:1[head];[0:v][head]overlay=x='760+420*sin(2*floor(t/12))':y=330[v]")

/** An interview: two heads from two of the demo photos, a third of the picture high, either side of the middle. */
const makeInterview = (dir: string): Promise<string> =>
  makeSource(
    dir,
    "interview.mp4",
    ["sample2.jpg", "sample3.jpg"],
    "[1:v]crop=340:420:1372:70,scale=-2:380,loop=-1:1[left];[2:v]crop=330:440:520:240,scale=-2:380,loop=-1:1[right];" +
      "[0:v][left]overlay=x=300:y=330[one];[one][right]overlay=x=1310:y=330[v]"
  )

const findFaces = (input: string) =>
  timed(() => Effect.runPromise(Effect.flatMap(FaceFinder, (f) => f.find({ input, width: WIDTH, height: HEIGHT, durationSeconds: SECONDS })).pipe(Effect.provide(FaceApiFinderLive))))

const plainEncode = async (input: string, output: string, framing: Framing | null) => {
  const filters = framing === null ? null : framingFilters(framing, `${output}.`, FPS, SECONDS)
  await Promise.all((filters?.files ?? []).map((file) => writeFile(file.path, file.content)))
  const chains = filters === null ? ["[0:v:0]crop=608:1080,scale=1080:1920[framed]"] : filters.chains("0:v:0", "framed")
  await run("ffmpeg", [
    "-nostdin", "-y", "-hide_banner", "-v", "error", "-i", input,
    "-filter_complex", [...chains, `[framed]setsar=1,fps=${FPS}[v]`].join(";"),
    "-map", "[v]", "-map", "0:a:0?", ...x264Args(process.env["X264_PRESET"]), "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", output
  ])
}

export const reframe = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "reelwright-bench-reframe-"))
  try {
    const talk = await makeTalk(dir)
    const middle = await timed(() => plainEncode(talk, join(dir, "middle.mp4"), null))
    process.stdout.write(`${BENCH}: plain re-encode of the middle ${middle.seconds.toFixed(1)} s\n`)
    const found = await findFaces(talk)
    const withFaces = found.value.samples.filter((s) => s.faces.length > 0).length
    process.stdout.write(`${BENCH}: faces ${found.seconds.toFixed(1)} s (${withFaces}/${found.value.samples.length} samples with a face)\n`)
    const interview = await makeInterview(dir)
    const interviewMiddle = await timed(() => plainEncode(interview, join(dir, "interview-middle.mp4"), null))
    const interviewFound = await findFaces(interview)
    const withTwo = interviewFound.value.samples.filter((s) => s.faces.length > 1).length
    process.stdout.write(`${BENCH}: two faces ${interviewFound.seconds.toFixed(1)} s (${withTwo}/${interviewFound.value.samples.length} samples with two)\n`)
    const service = await startService()
    let whole: { totalSeconds: number; videoId: string }
    let wholeCpu: number | null
    let unframed: { totalSeconds: number }
    let steps: ReadonlyArray<{ name: string; seconds: number }>
    let framing: Framing
    try {
      const measured = await withCpuOf(service.pid, () => pipeline(service, { path: talk }, { fields: { reframe: JSON.stringify({ aspectRatio: "9:16", mode: "face" }) } }))
      whole = measured.value
      wholeCpu = measured.cpuSeconds
      steps = stepTimings(service.log(), whole.videoId).filter((s) => !s.name.startsWith("job ") || s.name.includes("caption") || s.name.includes("render"))
      unframed = await pipeline(service, { path: talk })
      const captions = await fetch(`${service.baseUrl}/v1/videos/${whole.videoId}/captions`, { headers: { authorization: `Bearer ${service.token}` } })
      framing = ((await captions.json()) as { framing: Framing }).framing
    } finally {
      await service.stop()
    }
    const { value: plain, cpuSeconds: plainCpu } = await withCpuOf(process.pid, () => timed(() => plainEncode(talk, join(dir, "plain.mp4"), framing)))
    const cores = availableParallelism()
    return [
      { bench: BENCH, name: "(a) plain re-encode of the 9:16 output, 60 s", value: plain.seconds, unit: "s", note: `${framing.paths[0]?.length ?? 0} keys` },
      { bench: BENCH, name: "    the same of a fixed middle window", value: middle.seconds, unit: "s" },
      { bench: BENCH, name: "(f) faces and scene changes, 60 s of 1080p", value: found.seconds, unit: "s", note: `${withFaces} of ${found.value.samples.length} samples with a face` },
      { bench: BENCH, name: "(f) per minute of source / (a)", value: found.seconds / plain.seconds, unit: "x", target: { atMost: 0.2 } },
      { bench: BENCH, name: "(f2) faces, scene changes and mouths, 60 s of a two-person 1080p talk", value: interviewFound.seconds, unit: "s", note: `${withTwo} of ${interviewFound.value.samples.length} samples with two faces` },
      { bench: BENCH, name: "    plain re-encode of its middle 9:16 window", value: interviewMiddle.seconds, unit: "s" },
      { bench: BENCH, name: "(f2) per minute of source / its re-encode", value: interviewFound.seconds / interviewMiddle.seconds, unit: "x", target: { atMost: 0.2 } },
      { bench: BENCH, name: "(c) reframed caption video, POST to completed", value: whole.totalSeconds, unit: "s" },
      ...steps.map((s) => ({ bench: BENCH, name: `  ${s.name}`, value: s.seconds, unit: "s" })),
      { bench: BENCH, name: "(c) / (a)", value: whole.totalSeconds / plain.seconds, unit: "x", target: { atMost: 1.5 } },
      { bench: BENCH, name: "(a) CPU time", value: plainCpu, unit: "s", note: "ffmpeg's user and system time" },
      { bench: BENCH, name: "(c) CPU time", value: wholeCpu, unit: "s", note: "the service's, with the ffmpeg and recogniser runs it waited for" },
      {
        bench: BENCH,
        name: `(c) CPU / ${cores} cores / (a)`,
        value: wholeCpu === null ? null : wholeCpu / cores / plain.seconds,
        unit: "x",
        note: "(c) / (a) were every core busy throughout (c): the least this machine allows (information)"
      },
      { bench: BENCH, name: "(c0) the same without reframe, POST to completed", value: unframed.totalSeconds, unit: "s" },
      { bench: BENCH, name: "(c) / (c0)", value: whole.totalSeconds / unframed.totalSeconds, unit: "x" }
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await reframe())
