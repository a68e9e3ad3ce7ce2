// The opaque cursor of the video list, shared by every VideoStore adapter so a cursor means the
// same everywhere: the position (createdAt, id) of the last item returned, as base64url JSON.
import { Option } from "effect"
import type { VideoRecord } from "../domain/video.ts"

export type ListPosition = Pick<VideoRecord, "createdAt" | "id">

export const encodeListCursor = (p: ListPosition): string =>
  Buffer.from(JSON.stringify([p.createdAt, p.id])).toString("base64url")

/** None for a cursor no adapter made. */
export const decodeListCursor = (cursor: string): Option.Option<ListPosition> => {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    return Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string" &&
        !Number.isNaN(Date.parse(value[0]))
      ? Option.some({ createdAt: value[0], id: value[1] })
      : Option.none()
  } catch {
    return Option.none()
  }
}
