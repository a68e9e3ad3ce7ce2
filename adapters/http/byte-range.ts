/** Parses a single `Range: bytes=...` header against a size; null = serve the whole file, "invalid" = 416. */
export const parseByteRange = (
  header: string | undefined,
  size: number
): { readonly start: number; readonly end: number } | null | "invalid" => {
  if (header === undefined) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (match === null) return null // multiple or unknown ranges: answer with the whole file
  const [, from = "", to = ""] = match
  if (from === "" && to === "") return "invalid"
  if (from === "") {
    const suffix = Number(to)
    if (suffix === 0) return "invalid"
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || end < start) return "invalid"
  return { start, end }
}
