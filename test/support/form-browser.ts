// A browser without JavaScript for the server-rendered pages: a cookie jar, no redirects followed,
// forms posted with their hidden fields as a browser would (the sign-in's CSRF cookie and field included),
// and JSON sent with the session cookie as a page's script would.
import { expect } from "vitest"

const decodeEntities = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: "\"", "#39": "'" })[e]!)

export interface PageForm {
  readonly action: string
  readonly fields: Record<string, string>
  /** Radio choices of the form, as [value, label]. */
  readonly choices: ReadonlyArray<readonly [string, string]>
}

/** The forms of a page, with their hidden fields. */
export const formsOf = (html: string): ReadonlyArray<PageForm> =>
  [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)].map(([, action, body]) => ({
    action: decodeEntities(action!),
    fields: Object.fromEntries(
      [...body!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, n, v]) => [decodeEntities(n!), decodeEntities(v!)])
    ),
    choices: [...body!.matchAll(/<input type="radio" name="workspace" value="([^"]*)"[^>]*><span>([^<]*)/g)].map(([, v, label]) =>
      [decodeEntities(v!), decodeEntities(label!).trim()] as const
    )
  }))

export const formTo = (html: string, action: string): PageForm => {
  const form = formsOf(html).find((f) => f.action === action)
  if (form === undefined) throw new Error(`no form posting to ${action} in:\n${html}`)
  return form
}

/** A browser without JavaScript: a cookie jar, no redirects followed, forms posted as a browser would. */
export class FormBrowser {
  private readonly cookies = new Map<string, string>()

  constructor(private readonly baseUrl: string) {}

  async request(
    target: string | URL,
    init: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}
  ) {
    const headers: Record<string, string> = { ...init.headers, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }
    if (init.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded"
    if (init.json !== undefined) headers["content-type"] = "application/json"
    const body = init.form !== undefined ? new URLSearchParams(init.form) : init.json !== undefined ? JSON.stringify(init.json) : undefined
    const response = await fetch(new URL(target, this.baseUrl), {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      redirect: "manual",
      headers,
      ...(body === undefined ? {} : { body })
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const [name, value] = pair!.split("=") as [string, string]
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a))
      if (expired) this.cookies.delete(name.trim())
      else this.cookies.set(name.trim(), value)
    }
    return { response, html: await response.text() }
  }

  cookie(name: string) {
    return this.cookies.get(name)
  }

  /** Posts a page's form with its hidden fields plus `extra`. */
  submit(form: PageForm, extra: Record<string, string>) {
    return this.request(form.action, { form: { ...form.fields, ...extra } })
  }

  /** Signs in through the sign-in page a GET of `target` shows; answers where the browser was sent. */
  async signIn(target: string | URL, email: string, password: string) {
    const { html } = await this.request(target)
    const { response } = await this.submit(formTo(html, "/oauth/sign-in"), { email, password })
    expect(response.status).toBe(303)
    return response.headers.get("location")!
  }
}
