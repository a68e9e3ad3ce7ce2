// The editor routes (editor-contract.ts) as typed calls from the page: the session cookie goes along
// on its own, the CSRF token in its header on every write; a refusal becomes an EditorApiError
// carrying the server's message.
import {
  CSRF_HEADER,
  EDITOR_PATHS,
  type EditorCaptions,
  type EditorError,
  type EditorState,
  type EditorTemplate,
  type EditorVideo,
  type EditPayload,
  type ExportPayload,
  type EditorVocabulary,
  type SaveTemplatePayload,
  type VocabularyPayload
} from "../editor-contract.ts"

/** Under the 64 KiB browsers allow all keepalive requests of a page together, with room for one in flight. */
const KEEPALIVE_LIMIT = 48_000

export class EditorApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

const refusal = async (response: Response): Promise<EditorApiError> => {
  const body = await response.json().catch(() => null) as Partial<EditorError> | null
  const message = body?.error?.message ?? `The server answered ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}.`
  return new EditorApiError(response.status, message)
}

export interface EditorApi {
  readonly state: () => Promise<EditorState>
  readonly saveCaptions: (edit: EditPayload) => Promise<EditorCaptions>
  readonly exportVideo: (options: ExportPayload) => Promise<EditorVideo>
  readonly saveTemplate: (template: SaveTemplatePayload) => Promise<EditorTemplate>
  readonly addToVocabulary: (payload: VocabularyPayload) => Promise<EditorVocabulary>
}

export const editorApi = (base: string, csrf: string): EditorApi => {
  const root = base.replace(/\/+$/, "")
  const call = async <A>(method: string, path: string, body?: unknown): Promise<A> => {
    let response: Response
    const json = body === undefined ? undefined : JSON.stringify(body)
    try {
      response = await fetch(`${root}${path}`, {
        method,
        cache: "no-store",
        headers: json === undefined ? { [CSRF_HEADER]: csrf } : { [CSRF_HEADER]: csrf, "content-type": "application/json" },
        // A save the page starts as it closes still arrives; browsers refuse keepalive bodies over 64 KB.
        keepalive: json !== undefined && json.length < KEEPALIVE_LIMIT,
        ...(json === undefined ? {} : { body: json })
      })
    } catch {
      throw new EditorApiError(0, "The server could not be reached: check the connection.")
    }
    if (!response.ok) throw await refusal(response)
    return await response.json() as A
  }
  return {
    state: () => call("GET", EDITOR_PATHS.state),
    saveCaptions: (edit) => call("PATCH", EDITOR_PATHS.captions, edit),
    exportVideo: (options) => call("POST", EDITOR_PATHS.exportVideo, options),
    saveTemplate: (template) => call("POST", EDITOR_PATHS.templates, template),
    addToVocabulary: (payload) => call("POST", EDITOR_PATHS.vocabulary, payload)
  }
}
