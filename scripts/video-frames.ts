// Renders a short AI video (V3, each art style given) and a gameplay video with the real service,
// and saves a frame of each under docs/frames/ for the README: `npx tsx scripts/video-frames.ts`.
import { execFile } from "node:child_process"
import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { startService } from "../bench/service-process.ts"

const run = promisify(execFile)
const OUT = resolve(import.meta.dirname, "..", "docs", "frames")
const SCRIPT = "The ocean is calm at sunrise. Birds fly over the quiet beach, and the day begins."

const videos = [
  { name: "ai-video-watercolor", path: "/v1/ai-videos/v3", body: { artStyleId: "watercolor" } },
  { name: "ai-video-vaporwave", path: "/v1/ai-videos/v3", body: { artStyleId: "vaporwave" } },
  { name: "gameplay-runner", path: "/v1/gameplay-videos", body: { footage: "runner" } },
  { name: "gameplay-racer", path: "/v1/gameplay-videos", body: { footage: "racer" } },
  { name: "gameplay-blocks", path: "/v1/gameplay-videos", body: { footage: "blocks" } }
]

await mkdir(OUT, { recursive: true })
const service = await startService()
try {
  const headers = { authorization: `Bearer ${service.token}`, "content-type": "application/json" }
  for (const video of videos) {
    const created = await fetch(`${service.baseUrl}${video.path}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ script: SCRIPT, render: {}, ...video.body })
    })
    const { id } = (await created.json()) as { id: string }
    let done: { status: string; videoUrl?: string; error?: string; duration?: number } | undefined
    while (done === undefined || done.status === "processing") {
      await sleep(300)
      done = (await (await fetch(`${service.baseUrl}/v1/videos/${id}`, { headers })).json()) as typeof done
    }
    if (done.videoUrl === undefined) throw new Error(`${video.name}: ${done.status} ${done.error ?? ""}`)
    const frame = resolve(OUT, `${video.name}.png`)
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-ss", "1.6", "-i", done.videoUrl, "-frames:v", "1", "-vf", "scale=540:-2", frame])
    console.log(`${video.name}: ${frame}`)
  }
} finally {
  await service.stop()
}
