import type { StoredFile } from "../../domain/ports/file-store.ts"

/** Public, unguessable links. They carry a random token, so they work in a browser without a header. */
export const fileUrl = (baseUrl: string, file: Pick<StoredFile, "token" | "name">): string =>
  `${baseUrl}/media/${file.token}/${encodeURIComponent(file.name)}`

export const editorUrl = (baseUrl: string, editorToken: string): string => `${baseUrl}/editor/${editorToken}`
