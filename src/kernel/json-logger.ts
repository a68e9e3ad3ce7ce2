// One JSON object per line, for log collectors: `time` (ISO), `level`, `message`, the log annotations
// as top-level fields, and `cause` when the entry has one. Effect's own jsonLogger nests annotations
// and prints a Duration as its inner structure; this shape is ours, so queries can rely on it.
import { Cause, Duration, HashMap, Logger } from "effect"

/** The fields every line has; an annotation of the same name does not replace them. */
const FIXED = new Set(["time", "level", "message", "cause"])

/**
 * JSON.stringify's replacer: `this[key]` is the value before its toJSON ran, so a Duration nested in an
 * annotation still becomes milliseconds. Errors keep their message; bigints (which JSON lacks) become text.
 */
function plain(this: unknown, key: string, value: unknown): unknown {
  const original = typeof this === "object" && this !== null ? (this as Record<string, unknown>)[key] : value
  if (Duration.isDuration(original)) return Duration.toMillis(original)
  if (original instanceof Error) return original.message
  if (typeof value === "bigint") return value.toString()
  return value
}

/** Text for a message part that is not a string; a value that cannot be serialised (a cycle) as String gives it. */
const textOf = (part: unknown): string => {
  if (typeof part === "string") return part
  if (part instanceof Error) return part.message
  try {
    return JSON.stringify(part, plain) ?? String(part)
  } catch {
    return String(part)
  }
}

/** A Duration annotation is written in milliseconds, under a name that says so. */
const field = (key: string, value: unknown): [string, unknown] =>
  Duration.isDuration(value) ? [key.endsWith("Ms") ? key : `${key}Ms`, Duration.toMillis(value)] : [key, value]

export const jsonLogger = Logger.make<unknown, string>(({ annotations, cause, date, logLevel, message }) => {
  const entry: Record<string, unknown> = {
    time: date.toISOString(),
    level: logLevel.label.toLowerCase(),
    message: (Array.isArray(message) ? message : [message]).map(textOf).join(": ")
  }
  for (const [key, value] of HashMap.toEntries(annotations)) {
    if (FIXED.has(key)) continue
    const [name, written] = field(key, value)
    entry[name] = written
  }
  if (!Cause.isEmpty(cause)) entry["cause"] = Cause.pretty(cause, { renderErrorCause: true })
  try {
    return JSON.stringify(entry, plain)
  } catch {
    // An annotation that cannot be serialised (a cycle) costs its own field, not the line.
    return JSON.stringify(Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, textOf(value)])))
  }
})
