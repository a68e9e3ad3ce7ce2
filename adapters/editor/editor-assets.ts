// GET /editor-assets/:name: the web editor's browser code, bundled by esbuild in memory on the first
// request (no build step: `npm start` serves it), with JASSUB's worker and wasm from node_modules and
// the caption font files, so the page loads nothing from anywhere but this service.
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Data, Effect } from "effect"
import { build, type Plugin } from "esbuild"
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"
import { CAPTION_FONT_FAMILIES } from "../../domain/caption-fonts.ts"
import { BUILT_IN_TEMPLATES, DEFAULT_TEMPLATE_ID } from "../../domain/captions.ts"
import { CAPTION_FONT_FILES, CJK_FALLBACK_FONT } from "../media/caption-fonts.ts"
import type { CaptionPreviewAssets } from "./caption-preview-assets.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The browser entry points in ./browser, each served as /editor-assets/<entry>.js. */
const BROWSER_ENTRIES = ["caption-preview", "editor-app"] as const
type BrowserEntry = (typeof BROWSER_ENTRIES)[number]

export const EDITOR_ASSETS_PATH = "/editor-assets"
const assetUrl = (name: string) => `${EDITOR_ASSETS_PATH}/${name}`
export const browserModuleUrl = (entry: BrowserEntry): string => assetUrl(`${entry}.js`)

const WORKER = "jassub-worker.js"
const WASM = "jassub-worker.wasm"
const MODERN_WASM = "jassub-worker-modern.wasm"
/** The default template's family, which is fontconfig's pick on the server for a family it lacks. */
const DEFAULT_CAPTION_FONT = BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!.style.fontFamily

const fontUrl = (file: string) => assetUrl(basename(file))

/** What the editor page hands createCaptionPreview, and where it imports the preview from. */
export const editorAssetUrls: CaptionPreviewAssets & { readonly previewModule: string } = {
  previewModule: browserModuleUrl("caption-preview"),
  workerUrl: assetUrl(WORKER),
  wasmUrl: assetUrl(WASM),
  modernWasmUrl: assetUrl(MODERN_WASM),
  fonts: Object.fromEntries(CAPTION_FONT_FAMILIES.map(({ family }) =>
    [family, CAPTION_FONT_FILES.filter((file) => file.family === family).map(({ path }) => fontUrl(path))])),
  cjkFallback: { family: CJK_FALLBACK_FONT.family, url: fontUrl(CJK_FALLBACK_FONT.path) },
  defaultFont: DEFAULT_CAPTION_FONT
}

class EditorAssetUnavailable extends Data.TaggedError("EditorAssetUnavailable")<{ readonly message: string }> {}

interface Loaded {
  readonly bytes: Uint8Array
  readonly etag: string
}

const loaded = (bytes: Uint8Array): Loaded => ({
  bytes,
  etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`
})

const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/**
 * JASSUB imports two packages the preview does without: rvfc-polyfill (GPL-3.0) only stands in for
 * requestVideoFrameCallback, which current browsers all have; lfa-ponyfill looks fonts up on Google
 * Fonts, which `queryFonts: false` never does, and carries a 48 KB font list.
 */
const STAND_INS: Readonly<Record<string, string>> = {
  "rvfc-polyfill": "",
  "lfa-ponyfill": "export const queryRemoteFonts = async () => []"
}

const standIns: Plugin = {
  name: "stand-ins",
  setup: (esbuild) => {
    esbuild.onResolve({ filter: new RegExp(`^(${Object.keys(STAND_INS).join("|")})$`) }, (args) => ({ path: args.path, namespace: "stand-in" }))
    esbuild.onLoad({ filter: /.*/, namespace: "stand-in" }, (args) => ({ contents: STAND_INS[args.path] ?? "", loader: "js" }))
  }
}

const modules = createRequire(import.meta.url)

/** Every entry and JASSUB's worker in one esbuild run, once per process. */
const bundles = Effect.runSync(Effect.cached(Effect.tryPromise({
  try: async () => {
    const result = await build({
      entryPoints: {
        ...Object.fromEntries(BROWSER_ENTRIES.map((entry) => [entry, fileURLToPath(new URL(`./browser/${entry}.ts`, import.meta.url))])),
        [WORKER.replace(/\.js$/, "")]: modules.resolve("jassub/dist/worker/worker.js")
      },
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      outdir: EDITOR_ASSETS_PATH,
      logLevel: "silent",
      plugins: [standIns]
    })
    return new Map(result.outputFiles.map((file) => [basename(file.path), loaded(file.contents)]))
  },
  catch: (error) => new EditorAssetUnavailable({ message: `Bundling the editor's browser code failed: ${messageOf(error)}` })
})))

const fileAsset = (path: string) =>
  Effect.runSync(Effect.cached(Effect.tryPromise({
    try: async () => loaded(await readFile(path)),
    catch: (error) => new EditorAssetUnavailable({ message: `Reading ${path} failed: ${messageOf(error)}` })
  })))

const bundled = (name: string) =>
  Effect.flatMap(bundles, (outputs) => {
    const output = outputs.get(name)
    return output === undefined ? new EditorAssetUnavailable({ message: `esbuild produced no ${name}` }) : Effect.succeed(output)
  })

interface Asset {
  readonly contentType: string
  readonly load: Effect.Effect<Loaded, EditorAssetUnavailable>
}

const asset = (name: string, contentType: string, load: Asset["load"]): readonly [string, Asset] => [name, { contentType, load }]

const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ...[...BROWSER_ENTRIES.map((entry) => `${entry}.js`), WORKER].map((name) => asset(name, "text/javascript; charset=utf-8", bundled(name))),
  ...[WASM, MODERN_WASM].map((name) => asset(name, "application/wasm", fileAsset(modules.resolve(`jassub/dist/wasm/${name}`)))),
  ...[...CAPTION_FONT_FILES.map(({ path }) => path), CJK_FALLBACK_FONT.path].map((file) => asset(basename(file), "font/ttf", fileAsset(file)))
])

// The URLs carry no version, so browsers revalidate each time and get a 304 while the bytes are unchanged.
const CACHE_CONTROL = "public, no-cache"

const serveEditorAsset = Effect.gen(function*() {
  const { name } = yield* HttpRouter.params
  const found = ASSETS.get(name ?? "")
  if (found === undefined) return HttpServerResponse.text("No such editor asset.", { status: 404 })
  const request = yield* HttpServerRequest.HttpServerRequest
  return yield* found.load.pipe(
    Effect.map(({ bytes, etag }) => {
      const headers = { "cache-control": CACHE_CONTROL, etag, "x-content-type-options": "nosniff" }
      const known = (request.headers["if-none-match"] ?? "").split(",").map((tag) => tag.trim().replace(/^W\//, ""))
      return known.includes(etag)
        ? HttpServerResponse.empty({ status: 304, headers })
        : HttpServerResponse.uint8Array(bytes, { contentType: found.contentType, headers })
    }),
    Effect.catchAll((error) =>
      Effect.as(Effect.logError(error.message), HttpServerResponse.text("This editor asset is unavailable.", { status: 500 })))
  )
}).pipe(withSpan("serveEditorAsset"))

export const EditorAssetsRoute = HttpApiBuilder.Router.use((router) => router.get(`${EDITOR_ASSETS_PATH}/:name`, serveEditorAsset))
