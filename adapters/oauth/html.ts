// HTML built with a tagged template that escapes every interpolated string, so a client's name or
// an email address can never become markup. Only `Html` values (built the same way) pass through.

export class Html {
  constructor(readonly value: string) {}
}

export type HtmlValue = string | number | Html | ReadonlyArray<Html> | null | undefined | false

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!)

const render = (value: HtmlValue): string => {
  if (value === null || value === undefined || value === false) return ""
  if (value instanceof Html) return value.value
  if (typeof value === "number") return String(value)
  if (typeof value === "string") return escapeHtml(value)
  return value.map((part) => part.value).join("")
}

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<HtmlValue>): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ""), ""))
