// The web editor's page: the layout and its controls, the project's state as JSON for the script to
// start from, and the script itself (browser/editor-app.ts). No inline script, so EDITOR_CSP can
// forbid them; the preview's worker, wasm and fonts all come from this service.
import { HOOK_MAX_CHARACTERS, HOOK_SECONDS } from "../../domain/caption-hook.ts"
import { PLATFORM_NAMES } from "../../domain/safe-zones.ts"
import { Html, html } from "../oauth/html.ts"
import type { EditorBootstrap } from "./editor-contract.ts"

/**
 * JASSUB runs under it as is: its worker is a same-origin module script (worker-src 'self'), it
 * compiles libass with WebAssembly (script-src 'wasm-unsafe-eval'), fetches the wasm and the fonts
 * (connect-src 'self') and draws on an OffscreenCanvas, which no directive governs.
 */
export const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // With S3 storage a media link answers with a redirect to a presigned URL on the bucket's https origin.
  "media-src 'self' blob: https:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self' data: blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ")

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1c2230;--muted:#5d6878;--line:#dce0e6;--accent:#3652d9;--on-accent:#fff;--soft:#e9edfb;--bad:#b42318;--bad-bg:#fdeceb;--ok:#1b7f4b;--stage:#0e1014;--word:#eef1f6;--block:#c9d3f7;--now:#ffe27a}
@media (prefers-color-scheme:dark){:root{--bg:#13161b;--card:#1c2027;--text:#e6e9ef;--muted:#9aa3b1;--line:#303641;--accent:#8098ff;--on-accent:#0c0f1d;--soft:#262d45;--bad:#ff8d85;--bad-bg:#3a1e1e;--ok:#6fd49b;--word:#262b34;--block:#3a4670;--now:#806a12}}
*{box-sizing:border-box}
html,body{height:100%}
body{margin:0;display:flex;flex-direction:column;background:var(--bg);color:var(--text);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
button,input,select{font:inherit;color:inherit}
button{padding:.4rem .8rem;border-radius:7px;border:1px solid var(--line);background:var(--card);cursor:pointer;font-weight:600}
button:hover:not(:disabled){border-color:var(--accent)}
button:disabled{opacity:.45;cursor:not-allowed}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
input:focus-visible,button:focus-visible,select:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
select,input[type=text],input[type=number]{padding:.35rem .5rem;border:1px solid var(--line);border-radius:7px;background:var(--card)}
input[type=color]{width:2.4rem;height:2rem;padding:2px;border:1px solid var(--line);border-radius:7px;background:var(--card)}
fieldset{border:0;margin:0;padding:0;min-width:0}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .6rem}
.muted{color:var(--muted)}
.error{color:var(--bad);margin:.4rem 0 0;font-size:.9em}
.error:empty{display:none}
.warning{margin:.4rem 0 0;padding:.4rem .6rem;border-radius:7px;background:var(--soft);font-size:.9em}
.warning:empty{display:none}
.cut-list{margin:.3rem 0 0;padding-left:1.2rem}.cut-list li{margin:.2rem 0}.cut-list button{margin-left:.4rem}
header.bar{display:flex;align-items:center;gap:1rem;height:52px;padding:0 16px;background:var(--card);border-bottom:1px solid var(--line)}
.brand{font-weight:700;letter-spacing:.02em}
.brand span{color:var(--accent)}
header h1{font-size:1rem;margin:0;font-weight:600}
header .history{display:flex;gap:.4rem;margin-left:auto}
#save-state{min-width:9.5rem;text-align:right;color:var(--muted)}
#save-state[data-state=failed]{color:var(--bad)}
#save-state[data-state=saved]{color:var(--ok)}
#notice{display:flex;gap:1rem;align-items:center;justify-content:space-between;margin:.6rem 1rem 0;padding:.6rem .9rem;border-radius:8px;background:var(--bad-bg);color:var(--bad)}
#notice[hidden]{display:none}
#offer{display:flex;gap:.6rem;align-items:center;margin:.6rem 1rem 0;padding:.5rem .9rem;border-radius:8px;background:var(--word)}
#offer span{flex:1}
#offer[hidden]{display:none}
main.editor{flex:1;min-height:0;display:grid;grid-template-columns:auto minmax(18rem,1fr) 22rem;grid-template-rows:minmax(0,1fr) auto;gap:12px;padding:12px 16px 16px}
.panel{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.9rem;min-height:0}
.stage{display:flex;flex-direction:column;gap:.5rem;min-height:0;align-items:center}
#player{position:relative;background:var(--stage);border-radius:10px;overflow:hidden;line-height:0}
#safe-zones{position:absolute;inset:0;z-index:1;pointer-events:none;line-height:1.2}
#safe-zones[hidden]{display:none}
#emoji-layer{position:absolute;inset:0;z-index:1;pointer-events:none;line-height:1;overflow:hidden}
#emoji-layer span{position:absolute;display:flex;align-items:center;justify-content:center;font-family:"Noto Color Emoji",sans-serif}
.zone{position:absolute;overflow:hidden;padding:3px 5px;background:rgba(229,72,77,.22);outline:1px dashed rgba(255,150,150,.9);outline-offset:-1px;color:#fff;font-size:10px;text-shadow:0 0 2px #000}
#crop-layer{position:absolute;inset:0;z-index:2;pointer-events:none}
#crop-layer[hidden]{display:none}
#output-view{position:absolute;z-index:2;box-shadow:0 0 0 100vmax var(--stage)}
#output-view[hidden]{display:none}
#player[data-view=output] canvas.JASSUB,#player[data-view=output] #emoji-layer{z-index:3}
.crop-window{position:absolute;box-sizing:border-box;border:2px solid #ffd23f;box-shadow:0 0 0 100vmax rgba(0,0,0,.45);pointer-events:auto;cursor:move;touch-action:none}
#player video{display:block;width:auto;height:auto;max-width:min(36vw,720px);max-height:calc(100vh - 16.5rem);cursor:pointer}
.transport{display:flex;gap:.6rem;align-items:center;width:100%}
#clips{width:100%;line-height:1.35}
#clips[hidden]{display:none}
#clip-list{margin:0;padding-left:1.4rem;max-height:11rem;overflow:auto}
#clip-list li{margin:.15rem 0}
#clip-list li[aria-current]{font-weight:600}
#clip-list .first-line{display:block;color:var(--muted);font-weight:400;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#clock{font-variant-numeric:tabular-nums;color:var(--muted)}
.words{display:flex;flex-direction:column}
.panel-head{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;flex-wrap:wrap;margin-bottom:.5rem}
.panel-head h2{margin:0}
.panel-head .muted{font-size:.85em}
.edits#word-tools{display:flex;flex-direction:column;flex:1;min-height:0}
.toolbar{display:flex;flex-wrap:wrap;gap:.45rem;align-items:center;padding-bottom:.6rem;border-bottom:1px solid var(--line)}
.toolbar label{display:flex;gap:.3rem;align-items:center;color:var(--muted)}
.toolbar input[type=number]{width:4.9rem}
.toolbar button{padding:.35rem .65rem}
#transcript{flex:1;min-height:0;overflow:auto;padding-top:.4rem}
.page{padding:.35rem 0;border-bottom:1px dashed var(--line)}
.line{display:flex;gap:.5rem;align-items:baseline;padding:.15rem 0}
.line-time{flex:none;width:3.4rem;padding:0;border:0;background:none;color:var(--muted);font-weight:400;font-variant-numeric:tabular-nums;text-align:left}
.line-words{display:flex;flex-wrap:wrap;gap:.25rem}
.word{padding:.1rem .4rem;border-radius:6px;border:1px solid transparent;background:var(--word);font-weight:400}
.word.now{background:var(--now)}
.word.unsure{text-decoration:underline wavy var(--accent);text-underline-offset:3px}
.line.hard-to-read{box-shadow:inset 3px 0 0 var(--accent)}
.word.emphasis{font-weight:700;color:var(--accent);border-bottom-color:var(--accent)}
.word.selected{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.toolbar button[aria-pressed=true],#view-output[aria-pressed=true]{background:var(--soft);border-color:var(--accent)}
#word-text{width:8rem;padding:.1rem .4rem}
.side{display:flex;flex-direction:column;gap:1rem;overflow:auto}
.field{display:grid;grid-template-columns:6.5rem 1fr;gap:.5rem;align-items:center;margin:.45rem 0}
.field>span{color:var(--muted)}
.field select,.field input[type=text]{width:100%}
.range{display:flex;gap:.5rem;align-items:center}
.range input{flex:1;min-width:0}
.range output{width:3.6rem;text-align:right;font-variant-numeric:tabular-nums;color:var(--muted)}
.colours{display:flex;gap:.8rem}
.colours label{display:flex;flex-direction:column;align-items:center;gap:.2rem;color:var(--muted);font-size:.85em}
.checks{display:flex;gap:1rem}
.checks label{display:flex;align-items:center;gap:.3rem;white-space:nowrap}
.inline{display:flex;gap:.45rem}
.inline input{flex:1;min-width:0}
hr{border:0;border-top:1px solid var(--line);margin:.2rem 0}
#export{width:100%;margin-top:.4rem}
#export-status{display:flex;gap:.5rem;align-items:center;margin-top:.5rem}
#export-status[hidden]{display:none}
#export-progress{flex:1}
#export-result video{display:block;width:100%;height:16rem;margin-top:.5rem;background:var(--stage);border-radius:8px}
.timeline-wrap{grid-column:1/-1;padding:.6rem .9rem}
#timeline{position:relative;overflow-x:auto;overflow-y:hidden;margin-top:.4rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);user-select:none}
#timeline-track{position:relative;height:5.6rem;cursor:text}
.tick{position:absolute;top:0;height:1.1rem;border-left:1px solid var(--line);padding-left:3px;font-size:.75em;color:var(--muted)}
.span{position:absolute;top:1.35rem;height:.45rem;border-radius:3px;background:var(--accent);opacity:.35}
.block{position:absolute;top:2.1rem;height:3rem;border-radius:6px;background:var(--block);border:1px solid transparent;overflow:hidden;white-space:nowrap;font-size:.85em;line-height:3rem;padding:0 8px;cursor:pointer}
.block.now{background:var(--now)}
.block.selected{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent)}
.handle{position:absolute;top:0;bottom:0;width:7px;cursor:ew-resize}
.handle.start{left:0}
.handle.end{right:0}
.block.selected .handle{background:var(--accent);opacity:.6}
#playhead{position:absolute;top:0;bottom:0;width:2px;background:#e5484d;pointer-events:none}
body[data-locked] .edits{opacity:.6}
@media (max-width:1100px){html,body{height:auto}main.editor{grid-template-columns:auto minmax(0,1fr);grid-template-rows:auto}.timeline-wrap{grid-row:2}.side{grid-row:3;grid-column:1/-1;overflow:visible;display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1.5rem}#transcript{max-height:60vh}}
`

const select = (id: string, options: ReadonlyArray<readonly [string, string]>): Html =>
  html`<select id="${id}">${options.map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select>`

const range = (id: string, label: string, min: number, max: number, step: number): Html =>
  html`<label class="field"><span>${label}</span><span class="range"><input id="${id}" type="range" min="${min}" max="${max}" step="${step}"><output id="${id}-value" for="${id}"></output></span></label>`

/** JSON that cannot end the <script> element it sits in: every `<` is written as its escape. */
const embeddedJson = (value: unknown): Html => new Html(JSON.stringify(value).replace(/</g, "\\u003c"))

export const editorPageHtml = (bootstrap: EditorBootstrap, appModuleUrl: string): string => {
  const { video } = bootstrap
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>Caption editor · ${video.id} · Reelwright</title><style>${STYLE}</style>
<script type="application/json" id="editor-bootstrap">${embeddedJson(bootstrap)}</script>
<script type="module" src="${appModuleUrl}"></script></head>
<body>
<header class="bar"><div class="brand">Reel<span>wright</span></div><h1>Caption editor</h1>
<div class="history"><button id="undo" type="button" title="Undo (Ctrl+Z)" disabled>Undo</button><button id="redo" type="button" title="Redo (Shift+Ctrl+Z)" disabled>Redo</button></div>
<div id="save-state" role="status" aria-live="polite" data-state="saved">All changes saved</div></header>
<div id="notice" role="alert" hidden><span id="notice-text"></span><button id="notice-close" type="button">Dismiss</button></div>
<div id="offer" role="status" hidden><span id="offer-text"></span><button id="offer-accept" type="button">Add to vocabulary</button><button id="offer-close" type="button">No thanks</button></div>
<noscript><p class="error">The editor needs JavaScript.</p></noscript>
<main class="editor">
<section class="stage" aria-label="Preview">
<div id="player"><video id="player-video"${video.sourceUrl === "" ? null : html` src="${video.sourceUrl}"`} width="${video.width}" height="${video.height}" preload="auto" playsinline></video><div id="emoji-layer" aria-hidden="true"></div><div id="safe-zones" role="group" hidden></div><div id="crop-layer" hidden></div><canvas id="output-view" aria-label="The output, as the export frames it" hidden></canvas></div>
<div class="transport"><button id="play" type="button">Play</button><span id="clock">0:00.0</span><button id="view-output" type="button" aria-pressed="false" title="Watch the output as the export frames it (a split's two windows stacked), with its captions; press again to move the windows over the source" hidden>Output</button></div>
<nav id="clips" aria-labelledby="clips-title" hidden><h2 id="clips-title">Clips of this talk</h2><ol id="clip-list"></ol></nav>
</section>
<section class="panel words" aria-labelledby="words-title"><div class="panel-head"><h2 id="words-title">Transcript</h2><span class="muted">Click a word to fix it: Enter keeps it, Tab goes to the next, Esc cancels.</span></div>
<fieldset id="word-tools" class="edits"><div class="toolbar">
<label>Start <input id="word-start" type="number" min="0" step="0.01" disabled></label>
<label>End <input id="word-end" type="number" min="0" step="0.01" disabled></label>
<button id="split-line" type="button" title="The selected word begins a new line" disabled>Split line</button>
<button id="merge-line" type="button" title="Join this line with the next" disabled>Merge with next</button>
<button id="toggle-emphasis" type="button" title="Draw the selected word in the template's emphasis colour and size (E)" aria-pressed="false" disabled>Emphasis</button>
<label title="An emoji beside the selected word's line, drawn in colour as the word is spoken: type or paste one and press Enter">Emoji <input id="line-emoji" type="text" size="3" maxlength="32" autocomplete="off" disabled></label>
<button id="remove-emoji" type="button" title="No emoji beside the selected word's line" disabled>No emoji</button>
<button id="delete-word" type="button" title="Delete the selected word" disabled>Delete</button>
</div>
<p id="word-error" class="error" role="alert"></p>
<div id="transcript"><p class="muted">Loading the captions…</p></div></fieldset>
</section>
<aside class="panel side">
<section aria-labelledby="style-title"><h2 id="style-title">Style</h2>
<fieldset id="style-tools" class="edits">
<label class="field"><span>Template</span><select id="template"></select></label>
<label class="field"><span>Position</span>${select("position", [["bottom", "Bottom"], ["lower-third", "Lower third"], ["middle", "Middle"], ["top", "Top"]])}</label>
${range("margin", "Margin", 0, 0.45, 0.005)}
<label class="field"><span>Font</span><select id="font"></select></label>
${range("font-size", "Size", 0.02, 0.12, 0.001)}
<div class="field"><span>Colours</span><div class="colours">
<label>Text<input id="text-color" type="color"></label><label>Highlight<input id="highlight-color" type="color"></label><label>Outline<input id="outline-color" type="color"></label></div></div>
<label class="field"><span>Highlight</span>${select("highlight", [["word-pop", "Word pop"], ["karaoke-fill", "Karaoke fill"], ["box-word", "Boxed word"], ["none", "None"]])}</label>
<label class="field"><span>Animation</span>${select("animation", [["none", "None"], ["pop", "Pop in"], ["bounce", "Bounce"], ["slide-up", "Slide up"], ["fade", "Fade"], ["typewriter", "Typewriter"], ["glow-pulse", "Glow pulse"], ["shake", "Shake"]])}</label>
<div class="field"><span>Text</span><div class="checks"><label><input id="uppercase" type="checkbox"> Uppercase</label><label><input id="bold" type="checkbox"> Bold</label></div></div>
<label class="field" title="Auto: the server picks the words that stand out (numbers, names, rare and stressed words), at most two a line; a word's Emphasis button changes it after. Off: no word is emphasised."><span>Emphasis</span>${select("emphasis", [["off", "Off"], ["auto", "Auto"]])}</label>
<hr>
<label class="field"><span>Hook</span><input id="hook-text" type="text" maxlength="${HOOK_MAX_CHARACTERS}" placeholder="A title over the first seconds"></label>
<label class="field"><span>Hook seconds</span><input id="hook-seconds" type="number" min="${HOOK_SECONDS.min}" max="${HOOK_SECONDS.max}" step="0.5"></label>
<label class="field"><span>Platform</span>${select("platform", Object.entries(PLATFORM_NAMES))}</label>
<p id="zone-warning" class="warning" role="status"></p>
<hr>
<label class="field"><span>Save as</span><span class="inline"><input id="template-name" type="text" maxlength="80" placeholder="Template name"><button id="save-template" type="button">Save</button></span></label>
<p id="template-error" class="error" role="alert"></p>
</fieldset></section>
<section id="cuts" aria-labelledby="cuts-title" hidden><h2 id="cuts-title">Cuts</h2>
<p class="muted">Pauses and fillers the export leaves out; playing skips them. Restore one to keep it.</p>
<ol id="cut-list" class="cut-list"></ol></section>
<section aria-labelledby="export-title"><h2 id="export-title">Export</h2>
<label class="field"><span>Format</span>${select("export-format", [["standard", "Standard"], ["greenscreen", "Greenscreen"]])}</label>
<label class="field"><span>Frame rate</span>${select("export-fps", [["30", "30 fps"], ["60", "60 fps"]])}</label>
<button id="export" class="primary" type="button">Export mp4</button>
<p id="export-reason" class="muted" hidden></p>
<div id="export-status" hidden><progress id="export-progress" max="1" value="0"></progress><span id="export-percent"></span></div>
<p id="export-error" class="error" role="alert"></p>
<div id="export-result"></div>
</section>
</aside>
<section class="panel timeline-wrap" aria-labelledby="timeline-title"><div class="panel-head"><h2 id="timeline-title">Timeline</h2>
<span class="muted">Click to seek; drag a word's edges to change when it starts and ends.</span>
<label class="muted">Zoom <input id="zoom" type="range" min="40" max="400" step="10" value="140"></label></div>
<div id="timeline"><div id="timeline-track"><div id="playhead"></div></div></div>
</section>
</main>
</body></html>`.value
}
