// The web editor behind every video's editorUrl (/editor/:token): the page, and the JSON routes its
// script calls (editor-contract.ts). The link alone grants nothing: each request needs the signed-in
// session of a member of the video's workspace (anyone else gets the same 404 as for no project), and
// each write the session's CSRF token in a header. Edits, exports and saved templates go through the
// same operations as the API, acting for the video's workspace; an export started here sends no event.
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, ParseResult, Schema } from "effect"
import type { DomainError } from "../../domain/errors.ts"
import { InvalidInput } from "../../domain/errors.ts"
import { canRender } from "../../domain/plans.ts"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { UserStore } from "../../domain/ports/user-store.ts"
import type { Workspace } from "../../domain/ports/workspace-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { FrameRate, RenderFormat } from "../../domain/rules.ts"
import type { VideoRecord } from "../../domain/video.ts"
import { VocabularyTerm } from "../../domain/vocabulary.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { createCaptionTemplate } from "../../src/ops/caption-templates/create-caption-template.ts"
import { listCaptionTemplates } from "../../src/ops/caption-templates/list-caption-templates.ts"
import { editorPictureOf, type EditorPictureState } from "../../src/ops/render/render-editor-picture.job.ts"
import { requestExport } from "../../src/ops/render/render-video.ts"
import { csrfMatches, csrfTokenFor, currentUser } from "../../src/ops/users/parts/session.ts"
import { editVideoCaptions } from "../../src/ops/videos/edit-video-captions.ts"
import { videoCaptions } from "../../src/ops/videos/get-video-captions.ts"
import { getWorkspaceVocabulary } from "../../src/ops/workspace-vocabulary/get-workspace-vocabulary.ts"
import { setWorkspaceVocabulary } from "../../src/ops/workspace-vocabulary/set-workspace-vocabulary.ts"
import { presentClips } from "../../src/kernel/present-clips.ts"
import { presentVideo } from "../../src/kernel/present-video.ts"
import { errorBody, toApiError } from "../http/api-error.ts"
import { messagePage } from "../oauth/page-layout.ts"
import { sessionToken } from "../oauth/session-cookie.ts"
import { showSignIn } from "../oauth/sign-in-route.ts"
import { CSRF_HEADER, EDITOR_PATHS, type EditorBootstrap, type EditorClip, type EditorState, type EditorVideo } from "./editor-contract.ts"
import { browserModuleUrl, editorAssetUrls } from "./editor-assets.ts"
import { EDITOR_CSP, editorPageHtml } from "./editor-page-html.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const EDITOR_PATH = "/editor"

/** Headers of every editor answer: never framed, never cached, the token-bearing URL never sent on as a referrer. */
const PAGE_HEADERS = {
  "content-security-policy": EDITOR_CSP,
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff"
} as const

const noProject = messagePage(404, "No project here", "This link leads to no project you can open. Sign in as a member of the video's workspace.")

interface Access {
  readonly session: string
  readonly video: VideoRecord
  readonly workspace: Workspace
}

type Refusal = { readonly _tag: "SignedOut" } | { readonly _tag: "NoProject" }

/** The video behind the token, when the signed-in user is a member of its workspace. */
const access = Effect.gen(function*() {
  const { token } = yield* HttpRouter.params
  const session = yield* sessionToken
  const user = yield* currentUser(session)
  if (session === undefined || Option.isNone(user)) return yield* Effect.fail<Refusal>({ _tag: "SignedOut" })
  const video = yield* (yield* VideoStore).findByEditorToken(token ?? "")
  if (Option.isNone(video)) return yield* Effect.fail<Refusal>({ _tag: "NoProject" })
  const member = (yield* (yield* UserStore).workspacesOf(user.value.id)).find((m) => m.workspace.id === video.value.workspaceId)
  if (member === undefined) return yield* Effect.fail<Refusal>({ _tag: "NoProject" })
  return { session, video: video.value, workspace: member.workspace } satisfies Access
})

const json = (status: number, body: unknown) =>
  HttpServerResponse.unsafeJson(body, { status, headers: PAGE_HEADERS })

const refusalJson = (refusal: Refusal) =>
  refusal._tag === "SignedOut"
    ? json(401, { error: { code: "unauthenticated", message: "Your sign-in ended: reload the page and sign in again." } })
    : json(404, { error: { code: "not_found", message: "No project you can open behind this link." } })

const errorJson = (error: DomainError) => {
  const apiError = toApiError(error)
  return json(apiError.status, errorBody(apiError))
}

/** The request's JSON body decoded with an operation's payload schema; a bad one names the field. */
const body = <A, I>(schema: Schema.Schema<A, I>) =>
  HttpServerRequest.HttpServerRequest.pipe(
    Effect.flatMap((request) => request.json),
    Effect.mapError(() => new InvalidInput({ field: "body", message: "The body must be JSON." })),
    Effect.flatMap((raw) =>
      Schema.decodeUnknown(schema)(raw).pipe(
        Effect.mapError((error) => {
          const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
          return new InvalidInput({ field: issue === undefined || issue.path.length === 0 ? "body" : issue.path.map(String).join("."), message: issue?.message ?? "Invalid body." })
        })
      )
    )
  )

/** The picture's state in the page's terms. */
const pictureFields = (state: EditorPictureState): Pick<EditorVideo, "sourceUrl" | "picture" | "pictureError"> => {
  switch (state._tag) {
    case "Ready":
      return { sourceUrl: state.url, picture: "ready" }
    case "Preparing":
      return { sourceUrl: "", picture: "preparing" }
    case "Missing":
      return { sourceUrl: "", picture: "failed", pictureError: state.reason }
  }
}

const editorVideo = (video: VideoRecord) =>
  Effect.gen(function*() {
    const presented = yield* presentVideo(video)
    return {
      id: video.id,
      kind: video.kind,
      status: video.status,
      step: video.step,
      width: video.width ?? 0,
      height: video.height ?? 0,
      duration: video.durationSeconds ?? 0,
      ...pictureFields(yield* editorPictureOf(video)),
      ...(presented.videoUrl === undefined ? {} : { videoUrl: presented.videoUrl }),
      ...(presented.export === undefined ? {} : { export: presented.export }),
      ...(presented.error === undefined ? {} : { error: presented.error })
    } satisfies EditorVideo
  })

const state = (videoId: string) =>
  Effect.gen(function*() {
    const video = Option.getOrThrow(yield* (yield* VideoStore).getById(videoId))
    return { video: yield* editorVideo(video), captions: yield* videoCaptions(videoId) } satisfies EditorState
  })

const page = Effect.gen(function*() {
  const { baseUrl } = yield* ServiceConfig
  const granted = yield* Effect.either(access)
  if (granted._tag === "Left") {
    const { token } = yield* HttpRouter.params
    return granted.left._tag === "SignedOut" ? yield* showSignIn({ returnTo: `${EDITOR_PATH}/${token ?? ""}` }, 200, baseUrl) : noProject
  }
  return yield* editorPage(granted.right).pipe(Effect.provideService(CurrentWorkspace, granted.right.workspace))
}).pipe(withSpan("editor.page"))

/** The clips of the talk a clip video was cut from, as the clips resource presents them; none for another video. */
const clipsOf = (video: VideoRecord) =>
  Effect.flatMap(ClipsStore, (store) => store.findByVideo(video.workspaceId, video.id)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed([]),
      onSome: (record) =>
        Effect.map(presentClips(record), ({ clips }) =>
          clips.map(({ editorUrl, endSeconds, firstLine, score, startSeconds, videoId }): EditorClip => ({
            startSeconds,
            endSeconds,
            score,
            firstLine,
            ...(editorUrl === undefined ? {} : { editorUrl }),
            current: videoId === video.id
          })))
    }))
  )

const editorPage = ({ session, video, workspace }: Access) =>
  Effect.gen(function*() {
    const loaded = yield* Effect.either(state(video.id))
    if (loaded._tag === "Left") return messagePage(409, "Not ready to edit", `${loaded.left.message} Reload this page in a moment.`)
    const templates = yield* listCaptionTemplates.handle({})
    const bootstrap: EditorBootstrap = {
      ...loaded.right,
      base: `${EDITOR_PATH}/${video.editorToken}`,
      csrf: csrfTokenFor(session),
      templates: templates.data,
      canExport: canRender(workspace.plan, workspace.byok),
      preview: { ...editorAssetUrls, module: editorAssetUrls.previewModule },
      clips: yield* clipsOf(video)
    }
    return HttpServerResponse.text(editorPageHtml(bootstrap, browserModuleUrl("editor-app")), {
      contentType: "text/html; charset=utf-8",
      headers: PAGE_HEADERS
    })
  })

/** A JSON route: signed in as a member; a write also carries the session's CSRF token. */
const route = <R>(write: boolean, work: (granted: Access) => Effect.Effect<unknown, DomainError, R | CurrentWorkspace>) =>
  Effect.gen(function*() {
    const granted = yield* Effect.either(access)
    if (granted._tag === "Left") return refusalJson(granted.left)
    if (write) {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!csrfMatches(granted.right.session, request.headers[CSRF_HEADER])) {
        return json(403, { error: { code: "csrf", message: "This page's form expired: reload the page and redo the change." } })
      }
    }
    return yield* work(granted.right).pipe(
      Effect.provideService(CurrentWorkspace, granted.right.workspace),
      Effect.match({ onFailure: errorJson, onSuccess: (result) => json(200, result) })
    )
  })

const ExportBody = Schema.Struct({ format: Schema.optional(RenderFormat), frameRate: Schema.optional(FrameRate) })
const TemplateBody = createCaptionTemplate.payload.pick("name")
const VocabularyBody = Schema.Struct({ term: VocabularyTerm })

const editCaptions = route(true, ({ video }) =>
  Effect.flatMap(body(editVideoCaptions.payload), (edit) => editVideoCaptions.handle({ ...edit, id: video.id })))

const exportVideo = route(true, ({ video }) =>
  Effect.gen(function*() {
    const options = yield* body(ExportBody)
    yield* requestExport({ id: video.id, ...options }, "editor")
    return yield* editorVideo(Option.getOrThrow(yield* (yield* VideoStore).getById(video.id)))
  }))

/** The style the captions are burned in now, saved under a name. */
const saveTemplate = route(true, ({ video }) =>
  Effect.gen(function*() {
    const { name } = yield* body(TemplateBody)
    const { style } = yield* videoCaptions(video.id)
    return yield* createCaptionTemplate.handle({ name, basedOn: undefined, style })
  }))

/** A word the person fixed, kept in the workspace's vocabulary for the videos captioned next. */
const addVocabularyTerm = route(true, () =>
  Effect.gen(function*() {
    const { term } = yield* body(VocabularyBody)
    const { terms } = yield* getWorkspaceVocabulary.handle({})
    return yield* setWorkspaceVocabulary.handle({ terms: [...terms, term] })
  }))

const readState = route(false, ({ video }) => state(video.id))

type Handlers = typeof page | typeof readState | typeof editCaptions | typeof exportVideo | typeof saveTemplate | typeof addVocabularyTerm

export const EditorRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<Exclude<Effect.Effect.Context<Handlers>, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>>()
    const at = (path: string) => `${EDITOR_PATH}/:token${path}` as const
    yield* router.get(`${EDITOR_PATH}/:token`, Effect.provide(page, context))
    yield* router.get(at(EDITOR_PATHS.state), Effect.provide(readState, context))
    yield* router.patch(at(EDITOR_PATHS.captions), Effect.provide(editCaptions, context))
    yield* router.post(at(EDITOR_PATHS.exportVideo), Effect.provide(exportVideo, context))
    yield* router.post(at(EDITOR_PATHS.templates), Effect.provide(saveTemplate, context))
    yield* router.post(at(EDITOR_PATHS.vocabulary), Effect.provide(addVocabularyTerm, context))
  })
)
