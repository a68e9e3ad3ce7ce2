// An example for every request and response of the OpenAPI document, written from the schema itself:
// a field's own `examples` annotation where it has one, its default, its first allowed value, else the
// least value its type and bounds allow. Computed, so no example can drift from its schema; the tests
// validate each against the schema it illustrates.

type Json = { readonly [key: string]: unknown }

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const EXAMPLE_UUID = "0b9e4c52-6f3d-4b8e-9a51-2c7d0e8f1a34"
const EXAMPLE_TIME = "2026-11-26T09:30:00.000Z"

/** A string for a field with no example of its own: its format's, else its name, long enough. */
const exampleString = (schema: Json, name: string): string => {
  switch (schema["format"]) {
    case "uuid":
      return EXAMPLE_UUID
    case "date-time":
      return EXAMPLE_TIME
    case "uri":
      return "https://files.example.com/clip.mp4"
  }
  const minLength = typeof schema["minLength"] === "number" ? schema["minLength"] : 0
  // Names say what the format does not: timestamps end in `At`, links in `Url`.
  const base = /At$/.test(name) ? EXAMPLE_TIME : /url$/i.test(name) ? `https://example.com/${name}` : name === "" ? "text" : name
  return base.padEnd(minLength, "x")
}

const exampleNumber = (schema: Json): number => {
  const minimum = typeof schema["minimum"] === "number"
    ? schema["minimum"]
    : typeof schema["exclusiveMinimum"] === "number"
    ? schema["exclusiveMinimum"] + 1
    : 1
  return typeof schema["maximum"] === "number" ? Math.min(minimum, schema["maximum"]) : minimum
}

/** Whether a property is shown: every one in an answer; in a request, those needed or given an example. */
export type Direction = "request" | "response"

export const exampleOf = (
  schema: unknown,
  components: Json,
  direction: Direction,
  name = "",
  seen: ReadonlyArray<string> = []
): unknown => {
  if (!isJson(schema)) return null
  const { $ref: ref, ...narrowing } = schema
  if (typeof ref === "string") {
    const target = ref.split("/").pop()!
    // A schema that contains itself (caption pages' lines) is shown once, not unfolded for ever.
    if (seen.includes(target)) return null
    // Keywords beside a reference narrow it (`Int` with a minimum).
    const referred = components[target]
    return exampleOf(isJson(referred) ? { ...referred, ...narrowing } : referred, components, direction, name, [...seen, target])
  }
  const examples = schema["examples"]
  if (Array.isArray(examples) && examples.length > 0) return examples[0]
  if (schema["default"] !== undefined) return schema["default"]
  if (schema["const"] !== undefined) return schema["const"]
  const values = schema["enum"]
  if (Array.isArray(values) && values.length > 0) return values[0]
  const branches = schema["anyOf"] ?? schema["oneOf"]
  if (Array.isArray(branches)) {
    const chosen = branches.find((b) => isJson(b) && b["type"] !== "null") ?? branches[0]
    return exampleOf(chosen, components, direction, name, seen)
  }
  const { allOf: parts, ...beside } = schema
  if (Array.isArray(parts)) {
    // Effect annotates or narrows a named schema as `allOf: [ref]` with the rest beside it: one schema.
    const resolved = parts.map((p) => (isJson(p) && typeof p["$ref"] === "string" ? components[p["$ref"].split("/").pop()!] : p))
    return exampleOf(Object.assign({}, ...resolved, beside), components, direction, name, seen)
  }
  switch (schema["type"]) {
    case "object": {
      const properties = isJson(schema["properties"]) ? schema["properties"] : {}
      const required = Array.isArray(schema["required"]) ? schema["required"] : []
      const shown = Object.entries(properties).filter(([key, property]) =>
        direction === "response" || required.includes(key) || (isJson(property) && Array.isArray(property["examples"]))
      )
      return Object.fromEntries(shown.map(([key, property]) => [key, exampleOf(property, components, direction, key, seen)]))
    }
    case "array": {
      const minItems = typeof schema["minItems"] === "number" ? Math.max(1, schema["minItems"]) : 1
      return Array.from({ length: minItems }, () => exampleOf(schema["items"], components, direction, name, seen))
    }
    case "string":
      return exampleString(schema, name)
    case "integer":
    case "number":
      return exampleNumber(schema)
    case "boolean":
      return false
    default:
      return null
  }
}

type Operation = { readonly [key: string]: unknown }

const withMediaExamples = (content: unknown, components: Json, direction: Direction): unknown => {
  if (!isJson(content)) return content
  return Object.fromEntries(Object.entries(content).map(([type, media]) => {
    // Multipart forms are illustrated by their JSON twin; a text answer by its own schema's example.
    if (!isJson(media) || type === "multipart/form-data" || media["example"] !== undefined) return [type, media]
    return [type, { ...media, example: exampleOf(media["schema"], components, direction) }]
  }))
}

/** `operation` with an example for its JSON body and for its success answer. */
export const withExamples = (operation: Operation, components: Json): Operation => {
  const body = operation["requestBody"]
  const responses = operation["responses"] as Readonly<Record<string, Json>>
  const success = responses["200"]
  return {
    ...operation,
    ...(isJson(body) ? { requestBody: { ...body, content: withMediaExamples(body["content"], components, "request") } } : {}),
    responses: {
      ...responses,
      ...(success === undefined ? {} : { 200: { ...success, content: withMediaExamples(success["content"], components, "response") } })
    }
  }
}
