// Small DOM helpers the editor's views share.

/** The page's element with this id, of the type the script expects; a missing one is a bug in the page. */
export const byId = <E extends HTMLElement>(id: string, type: { new(): E; prototype: E }): E => {
  const element = document.getElementById(id)
  if (!(element instanceof type)) throw new Error(`The editor page has no ${type.name} #${id}.`)
  return element
}

export const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<Pick<HTMLElementTagNameMap[K], "className" | "id" | "textContent" | "title">> = {},
  children: ReadonlyArray<Node> = []
): HTMLElementTagNameMap[K] => {
  const node = Object.assign(document.createElement(tag), properties)
  node.append(...children)
  return node
}

/** m:ss.s, the precision a word's edges are edited at. */
export const clockText = (seconds: number): string => {
  const tenths = Math.max(0, Math.round(seconds * 10))
  const minutes = Math.floor(tenths / 600)
  const rest = (tenths % 600) / 10
  return `${minutes}:${rest.toFixed(1).padStart(4, "0")}`
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
