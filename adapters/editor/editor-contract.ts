// What the editor page and its script exchange with the server (editor-routes.ts). Plain data and
// types only, so the browser program imports it too. Every route sits under the editorUrl, needs the
// signed-in session of a member of the video's workspace, and every write carries the session's CSRF
// token in the `x-csrf-token` header.
import type { StyleAdjustments } from "../../domain/caption-edits.ts"
import type { EmphasisMode } from "../../domain/caption-emphasis.ts"
import type { CaptionHook } from "../../domain/caption-hook.ts"
import type { CaptionPage, CaptionStyle, TimedWord } from "../../domain/captions.ts"
import type { Framing } from "../../domain/reframe.ts"
import type { Platform } from "../../domain/safe-zones.ts"
import type { ExportState } from "../../domain/video.ts"
import type { CaptionPreviewAssets } from "./caption-preview-assets.ts"
import type { Cut, TrimSettings } from "../../domain/trim.ts"

export const CSRF_HEADER = "x-csrf-token"

/** Paths under the editorUrl (`/editor/:token`). */
export const EDITOR_PATHS = {
  /** GET: EditorState, polled while an export runs. */
  state: "/state",
  /** PATCH: the edit (EditPayload) -> EditorCaptions. The same rules as PATCH /v1/videos/:id/captions. */
  captions: "/captions",
  /** POST: ExportPayload -> EditorVideo. The render operation's credits and plan rules; it sends no webhook event. */
  exportVideo: "/export",
  /** POST: SaveTemplatePayload -> EditorTemplate: the burned style saved as a workspace template. */
  templates: "/templates",
  /** POST: VocabularyPayload -> EditorVocabulary: a word the person fixed, added to the workspace's vocabulary. */
  vocabulary: "/vocabulary"
} as const

export interface EditorVideo {
  readonly id: string
  readonly kind: string
  readonly status: "processing" | "completed" | "failed"
  readonly step: string
  readonly width: number
  readonly height: number
  readonly duration: number
  /**
   * The picture the captions are previewed over, without captions: a caption video's source, or a
   * generated video's timeline rendered once for the editor. Empty until `picture` is ready.
   */
  readonly sourceUrl: string
  /** `preparing` while a generated video's picture is rendered (poll the state); `failed` with `pictureError`. */
  readonly picture: "ready" | "preparing" | "failed"
  readonly pictureError?: string
  /** The latest exported mp4, once there is one. */
  readonly videoUrl?: string
  readonly export?: ExportState
  readonly error?: string
}

/** GET /v1/videos/:id/captions's answer. */
export interface EditorCaptions {
  readonly videoId: string
  readonly templateId: number
  readonly revision: number
  readonly words: ReadonlyArray<TimedWord>
  readonly lineStarts: ReadonlyArray<number> | null
  readonly adjustments: StyleAdjustments
  readonly style: CaptionStyle
  readonly hook: CaptionHook | null
  readonly platform: Platform
  readonly emphasis: EmphasisMode
  readonly trim: TrimSettings | null
  /** Spans of the source the export leaves out, on the source's timeline. */
  readonly cuts: ReadonlyArray<Cut>
  readonly pages: ReadonlyArray<CaptionPage>
  /** The windows of a reframed video over its source; null when it is not reframed (or not planned yet). */
  readonly framing: Framing | null
}

export interface EditorTemplate {
  readonly id: number
  readonly name: string
  readonly builtIn: boolean
  readonly style: CaptionStyle
}

export interface EditorState {
  readonly video: EditorVideo
  readonly captions: EditorCaptions
}

/** Everything the page's script starts from, embedded in the page as JSON. */
/** One clip of the talk a clip video was cut from (POST /v1/clips), as GET /v1/clips/{id} lists it. */
export interface EditorClip {
  readonly startSeconds: number
  readonly endSeconds: number
  readonly score: number
  readonly firstLine: string
  /** Its video's editor; absent while the video is not made. */
  readonly editorUrl?: string
  /** The clip this page edits. */
  readonly current: boolean
}

export interface EditorBootstrap extends EditorState {
  /** The editorUrl: the routes above hang under it. */
  readonly base: string
  readonly csrf: string
  readonly templates: ReadonlyArray<EditorTemplate>
  /** Whether the workspace's plan can export (else the Export button says why it is off). */
  readonly canExport: boolean
  readonly preview: CaptionPreviewAssets & { readonly module: string }
  /** A clip video's fellow clips of its talk, best first (itself among them); empty for any other video. */
  readonly clips: ReadonlyArray<EditorClip>
}

/** Any field left out stays as it is. */
export interface EditPayload {
  readonly words?: ReadonlyArray<TimedWord>
  readonly lineStarts?: ReadonlyArray<number> | null
  readonly templateId?: number
  readonly adjustments?: StyleAdjustments
  /** Null removes the hook. */
  readonly hook?: CaptionHook | null
  readonly platform?: Platform
  /** `auto`: the server chooses the emphasised words afresh (the answer carries them); `off`: it clears every flag. */
  readonly emphasis?: EmphasisMode
  /** Replaces the cuts: the page sends them only when a person restored one. */
  readonly cuts?: ReadonlyArray<Cut>
  /** Replaces the windows' paths: the page sends them only when a person moved a window. */
  readonly framing?: { readonly paths: Framing["paths"] }
  readonly revision?: number
}

export interface ExportPayload {
  readonly format?: "standard" | "greenscreen"
  readonly frameRate?: 30 | 60
}

export interface SaveTemplatePayload {
  readonly name: string
}

export interface VocabularyPayload {
  readonly term: string
}

export interface EditorVocabulary {
  readonly terms: ReadonlyArray<string>
}

/** Every refusal, in the API's error shape: the status, and a message a person can act on. */
export interface EditorError {
  readonly error: {
    readonly code: string
    readonly message: string
    /** For bad input: `{ field, issues: [{ path, message }] }`. */
    readonly details?: unknown
  }
}
