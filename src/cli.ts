// The command line, derived from the operation catalogue: each operation with a CLI verb becomes a
// command whose flags are its input fields. It calls a running service over HTTP: admin verbs with
// ADMIN_TOKEN, the others with an API token (REELWRIGHT_TOKEN).
import { Either, ParseResult, Schema } from "effect"
import { openAsBlob } from "node:fs"
import { basename } from "node:path"
import { catalogue } from "./catalogue.ts"
import type { AnyOperation } from "./kernel/operation.ts"

const operations = catalogue.filter((op) => op.cli !== null) as ReadonlyArray<AnyOperation>

/** A command's line of the usage: what it does, and its fields. */
const commandUsage = (op: (typeof operations)[number]): string => {
  const fields = [...Object.keys(op.path.fields), ...Object.keys(op.payload.fields)].map((f) => `--${f}`).join(" ")
  return `  ${op.cli!.padEnd(20)} ${op.summary}${fields ? `\n  ${"".padEnd(20)} ${fields}` : ""}`
}

const usage = (): string =>
  [
    "Usage: reelwright <command> [--field value ...] [--server BASE_URL]",
    "",
    "Environment: REELWRIGHT_URL (or --server; default http://localhost:8080), ADMIN_TOKEN (admin commands), REELWRIGHT_TOKEN (the others).",
    "Values are parsed as JSON when they can be (numbers, objects), else taken as text.",
    "",
    "Commands:",
    ...operations.map(commandUsage),
    `  ${"caption".padEnd(20)} also takes --file PATH (upload instead of --url) and --wait (poll with a progress line)`
  ].join("\n")

const parseValue = (raw: string): unknown => {
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

const parseFlags = (args: ReadonlyArray<string>): Record<string, unknown> => {
  const flags: Record<string, unknown> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument ${arg}: flags look like --name value.`)
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const next = args[i + 1]
    if (inline !== undefined) flags[name] = parseValue(inline)
    else if (next === undefined || next.startsWith("--")) flags[name] = true
    else {
      flags[name] = parseValue(next)
      i++
    }
  }
  return flags
}

/** Path and query values travel as text; the schemas decode them as the server will. */
const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value))

const request = async (
  op: AnyOperation,
  flags: Record<string, unknown>,
  baseUrl: string
): Promise<{ status: number; body: unknown }> => {
  const pathFields = Object.keys(op.path.fields)
  const payloadFields = Object.keys(op.payload.fields)
  const input = Object.fromEntries(Object.entries(flags).filter(([k]) => pathFields.includes(k) || payloadFields.includes(k)))
  const path = op.http.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(asText(flags[name] ?? "")))
  const token = op.access === "admin" ? process.env.ADMIN_TOKEN : process.env.REELWRIGHT_TOKEN
  if (token === undefined) {
    throw new Error(`Set ${op.access === "admin" ? "ADMIN_TOKEN (printed by npm start)" : "REELWRIGHT_TOKEN (an API token)"}.`)
  }
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  let url = `${baseUrl}${path}`
  let body: FormData | string | undefined
  if (typeof flags.file === "string" && op.cli === "caption") {
    const form = new FormData()
    form.set("file", await openAsBlob(flags.file), basename(flags.file))
    for (const field of payloadFields.filter((f) => f !== "url" && input[f] !== undefined)) form.set(field, asText(input[field]))
    body = form
  } else if (op.http.method === "GET") {
    const query = new URLSearchParams(payloadFields.filter((f) => input[f] !== undefined).map((f): [string, string] => [f, asText(input[f])]))
    if (query.size > 0) url += `?${query}`
  } else {
    const payload = Object.fromEntries(payloadFields.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]))
    const checked = Schema.decodeUnknownEither(op.payload as unknown as Schema.Schema<unknown>)(payload)
    if (Either.isLeft(checked)) throw new Error(ParseResult.TreeFormatter.formatErrorSync(checked.left))
    headers["content-type"] = "application/json"
    body = JSON.stringify(payload)
  }
  const response = await fetch(url, { method: op.http.method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  return { status: response.status, body: text.length > 0 ? parseValue(text) : null }
}

/** Polls a video until it is terminal, drawing one progress line on stderr. */
const waitFor = async (id: string, baseUrl: string): Promise<unknown> => {
  const getVideo = operations.find((op) => op.cli === "get")!
  const started = Date.now()
  for (;;) {
    const { body } = await request(getVideo, { id }, baseUrl)
    const video = body as { status?: string; step?: string; export?: { status?: string } }
    const seconds = ((Date.now() - started) / 1000).toFixed(0)
    process.stderr.write(`\r${id}  ${video.status ?? "?"}  step: ${(video.step ?? "?").padEnd(18)} ${seconds}s   `)
    const exporting = video.export?.status === "rendering"
    if (video.status !== "processing" && !exporting) {
      process.stderr.write("\n")
      return body
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
}

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === "help" || verb === "--help") {
    process.stdout.write(usage() + "\n")
    return verb === undefined ? 2 : 0
  }
  const op = operations.find((o) => o.cli === verb)
  if (op === undefined) {
    process.stderr.write(`Unknown command ${verb}.\n\n${usage()}\n`)
    return 2
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`Usage: reelwright ${verb} [--field value ...] [--server BASE_URL]\n\n${commandUsage(op)}\n`)
    return 0
  }
  const { server, wait, ...flags } = parseFlags(rest)
  const baseUrl = String(server ?? process.env.REELWRIGHT_URL ?? "http://localhost:8080").replace(/\/+$/, "")
  const result = await request(op, flags, baseUrl)
  if (result.status >= 400) {
    process.stderr.write(`${JSON.stringify(result.body, null, 2)}\n`)
    return 1
  }
  const id = (result.body as { id?: string } | null)?.id
  const final = wait === true && id !== undefined ? await waitFor(id, baseUrl) : result.body
  process.stdout.write(`${JSON.stringify(final, null, 2)}\n`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
)
