// A clip video's fellow clips of its talk, best first: each its span of the talk, score and first line,
// a link to its own editor (the clip on this page marked instead; one whose video is not made yet, plain).
import type { EditorClip } from "../editor-contract.ts"
import { clockText, element } from "./dom.ts"

export const showClipList = (nav: HTMLElement, list: HTMLOListElement, clips: ReadonlyArray<EditorClip>): void => {
  nav.hidden = clips.length === 0
  list.replaceChildren(...clips.map((clip, i) => {
    const name = `Clip ${i + 1}`
    const label = clip.current || clip.editorUrl === undefined ? element("span", { textContent: name }) : Object.assign(element("a", { textContent: name }), { href: clip.editorUrl })
    const about = ` ${clockText(clip.startSeconds)}–${clockText(clip.endSeconds)} · score ${clip.score}${clip.editorUrl === undefined ? " · being made" : ""}`
    const item = element("li", { title: clip.firstLine }, [label, document.createTextNode(about), element("span", { className: "first-line", textContent: clip.firstLine })])
    if (clip.current) item.setAttribute("aria-current", "page")
    return item
  }))
}
