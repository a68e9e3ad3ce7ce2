// GET /editor/:token: until the web editor lands, the unguessable editorUrl serves a plain page
// with the project's status and transcript.
import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { FileStore } from "../../domain/ports/file-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { presentVideo } from "../../src/ops/videos/present-video.ts"

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const editorPage = Effect.gen(function*() {
  const { token } = yield* HttpRouter.params
  const videos = yield* VideoStore
  const found = yield* videos.findByEditorToken(token ?? "")
  if (Option.isNone(found)) {
    return HttpServerResponse.text("No project behind this link.", { status: 404 })
  }
  const video = yield* presentVideo(found.value)
  const words = yield* videos.getWords(video.id)
  const transcript = Option.match(words, {
    onNone: () => "<p><em>The transcript appears once the captions are timed.</em></p>",
    onSome: (ws) => `<p>${ws.map((w) => `<span title="${w.start.toFixed(2)}–${w.end.toFixed(2)} s">${escape(w.text)}</span>`).join(" ")}</p>`
  })
  const player = video.videoUrl === undefined ? "" : `<video controls width="360" src="${escape(video.videoUrl)}"></video>`
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="refresh" content="${video.status === "processing" ? 5 : 3600}"><title>Reelwright project ${escape(video.id)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem}dt{font-weight:600}span:hover{background:#ffe000}</style></head>
<body><h1>Caption project</h1><dl><dt>Status</dt><dd id="status">${escape(video.status)}</dd><dt>Step</dt><dd id="step">${escape(video.step)}</dd>
${video.error === undefined ? "" : `<dt>Error</dt><dd id="error">${escape(video.error)}</dd>`}
<dt>Created</dt><dd>${escape(video.createdAt)}</dd></dl>${player}<h2>Transcript</h2><div id="transcript">${transcript}</div></body></html>`
  return HttpServerResponse.text(html, { contentType: "text/html; charset=utf-8" })
}).pipe(Effect.withSpan("editorPage"))

export const EditorRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<FileStore | VideoStore | ServiceConfig>()
    yield* router.get("/editor/:token", Effect.provide(editorPage, context))
  })
)
