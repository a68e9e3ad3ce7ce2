// The frame every account and consent page shares: one small inline stylesheet, and headers that
// keep the pages out of frames (clickjacking a consent button), caches and Referer headers.
import { HttpServerResponse } from "@effect/platform"
import { type Html, html } from "./html.ts"

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1c2230;--muted:#5d6878;--line:#dce0e6;--accent:#3652d9;--on-accent:#fff;--bad:#b42318;--bad-bg:#fdeceb}
@media (prefers-color-scheme:dark){:root{--bg:#13161b;--card:#1c2027;--text:#e6e9ef;--muted:#9aa3b1;--line:#303641;--accent:#8098ff;--on-accent:#0c0f1d;--bad:#ff8d85;--bad-bg:#3a1e1e}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.brand{width:100%;max-width:32rem;padding:2rem 1.25rem 0;font-weight:700;letter-spacing:.02em}
.brand span{color:var(--accent)}
main{width:calc(100% - 2rem);max-width:32rem;margin:1rem;padding:2rem;background:var(--card);border:1px solid var(--line);border-radius:14px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 1rem}
p{margin:.5rem 0 1rem}
code{font-size:.9em;word-break:break-all}
.muted{color:var(--muted);font-size:.9rem}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input[type=email],input[type=password]{width:100%;padding:.6rem .75rem;border:1px solid var(--line);border-radius:8px;background:transparent;color:inherit;font:inherit}
input:focus-visible,button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
button{font:inherit;font-weight:600;padding:.6rem 1.15rem;border-radius:8px;border:1px solid transparent;cursor:pointer}
.primary{background:var(--accent);color:var(--on-accent)}
.primary:disabled{opacity:.45;cursor:not-allowed}
.secondary{background:transparent;color:var(--text);border-color:var(--line)}
.danger{background:transparent;color:var(--bad);border-color:var(--bad);padding:.35rem .8rem;font-size:.9rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}
.alert{background:var(--bad-bg);color:var(--bad);padding:.75rem 1rem;border-radius:8px}
fieldset{border:0;padding:0;margin:1rem 0 0}
legend{font-weight:600;margin-bottom:.35rem}
.choice{display:flex;gap:.65rem;align-items:center;padding:.65rem .8rem;border:1px solid var(--line);border-radius:8px;margin:.45rem 0;font-weight:400;cursor:pointer}
.choice:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.grants{list-style:none;padding:0;margin:0}
.grants li{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.9rem 0;border-top:1px solid var(--line)}
.grants li:first-child{border-top:0}
.grants strong{display:block}
.account{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-top:1.75rem;padding-top:1rem;border-top:1px solid var(--line)}
`

/** A whole page: the brand line, then one card holding `body`. */
export const layout = (title: string, body: Html): Html =>
  html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · Reelwright</title><style>${STYLE}</style></head>
<body><div class="brand">Reel<span>wright</span></div><main>${body}</main></body></html>`

/**
 * `formTargets`: origins a form on this page may end up at besides our own. The consent form's answer
 * is a redirect to the client, and browsers apply `form-action` to where the submission redirects.
 */
export const pageResponse = (
  status: number,
  page: Html,
  options: { readonly formTargets?: ReadonlyArray<string> } = {}
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(page.value, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      "content-security-policy": [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "img-src 'self' data:",
        `form-action ${["'self'", ...(options.formTargets ?? [])].join(" ")}`,
        "frame-ancestors 'none'",
        "base-uri 'none'"
      ].join("; "),
      "x-frame-options": "DENY",
      "cache-control": "no-store",
      pragma: "no-cache",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff"
    }
  })

/** A page that only says what went wrong and what to do. */
export const messagePage = (status: number, title: string, message: Html | string): HttpServerResponse.HttpServerResponse =>
  pageResponse(status, layout(title, html`<h1>${title}</h1><p>${message}</p>`))
