// The first paint of a page must not wait for its JavaScript. Next.js (App Router) writes its
// chunks as `<script src async>` in the <head> (vercel/next.js#66958, no option to change it):
// an async script runs as soon as it arrives, and from a nearby server it arrives while the
// browser is still laying out the page, so the page's ~150 KB of framework code is evaluated
// before the first paint. On a phone that is most of the largest paint's delay (Lighthouse's
// LCP breakdown: render delay), although every hosted page is complete, and usable, as HTML.
//
// This rewrites each such tag in an HTML response into an inline call (with the tag's CSP
// nonce) that hands the chunk's address to a tiny loader, defined with the first one. The
// loader adds the same `<script src async>` tags once the parsed page's largest content has
// been painted (the largest-contentful-paint entry, or the load event, and the page's
// fetchpriority=high image if in view; where the browser has no such entry, once parsed), at
// the buyer's first touch or key, or after 3 s at the latest. Started before the load event,
// the scripts still hold it back as they did in the head, so `load` still means hydrated. The scripts it adds are allowed by the policy's
// 'strict-dynamic'; nothing else in the page changes, and the low-priority preload Next.js
// puts in the head still fetches the entry chunk early.
//
// A page marked as shipping no client runtime (`<meta name="client-runtime" content="none">`,
// rendered by components/island.tsx: its behaviour is a vanilla island, or it has none) loses
// Next's runtime instead: its `/_next/static/` script tags, their `<link rel="preload"
// as="script">`, the nomodule polyfills and the inline `self.__next_f` RSC payload (which only
// that runtime reads). React's own inline scripts (`$RC`, `$RS`... that reveal streamed
// Suspense boundaries) are not Next's runtime and stay. React hoists the marker into the
// <head>, which it writes in one piece: the rewriter holds the page back until it has seen the
// marker or the end of the head, and decides then.
//
// Plain JavaScript: server/serve.mjs (npm start's entry) and server/dev.mjs (npm run dev's)
// both call rewritePageResponse, so a contributor sees the pages production serves; tests/unit
// covers it.

const SCRIPT_TAG = /<script\b([^>]*)><\/script>/g;
/** Everything the runtime-free page drops: Next's script tags, their preloads, the inline RSC payload. */
const RUNTIME_PART = /<script\b([^>]*)>([^]*?)<\/script>|<link\b([^>]*)\/?>/g;
const NO_RUNTIME_MARKER = /<meta\b[^>]*\bname="client-runtime"[^>]*\bcontent="none"/;
const RSC_PAYLOAD = /^\s*\(?self\.__next_f\b/;
const LOADER_GLOBAL = "__gwScript";

/**
 * The loader: queues chunk addresses until the largest paint (and the load event, so every
 * image has arrived) is behind us, then adds them as async scripts, in order.
 */
const LOADER =
  `(()=>{let q=[],go=0,lcp=null;const d=document,w=self,P=w.PerformanceObserver;` +
  `const add=s=>{const e=d.createElement("script");e.src=s;e.async=!0;d.head.appendChild(e)};` +
  `const start=()=>{if(go)return;go=1;q.forEach(add);q=[]};` +
  `w.${LOADER_GLOBAL}=s=>go?add(s):q.push(s);` +
  `const lcpApi=!!(P&&P.supportedEntryTypes&&P.supportedEntryTypes.includes("largest-contentful-paint"));` +
  // The page's main image (fetchpriority=high), when in view and still to arrive or be painted.
  `const imageWaits=()=>{const i=d.querySelector('img[fetchpriority="high"]');if(!i)return!1;` +
  `const r=i.getBoundingClientRect(),v=Math.max(0,Math.min(r.bottom,innerHeight)-Math.max(r.top,0))*Math.max(0,Math.min(r.right,innerWidth)-Math.max(r.left,0));` +
  `if(!v)return!1;if(!i.complete)return!0;if(!i.naturalWidth)return!1;return!lcp||(lcp.element!==i&&lcp.size<v)};` +
  // The first largest paint after the parser has finished tells the page is painted, unless its
  // main image is still to come. Not the load event: it often comes before the paint. When the
  // page painted while still arriving and nothing larger came after, two frames after the parse
  // (IntersectionObserver's first report, which a test's fake clock does not hold) will do.
  `const parsed=()=>{const n=performance.getEntriesByType&&performance.getEntriesByType("navigation")[0];return n?n.domInteractive:0};` +
  `let frames=0;const frame=()=>{const o=new IntersectionObserver(()=>{o.disconnect();frames++;ready();if(frames<2)frame()});o.observe(d.documentElement)};` +
  `const ready=()=>{if(go||d.readyState==="loading")return;if(!lcpApi||d.visibilityState!=="visible")return start();` +
  `if(!imageWaits()&&lcp&&(lcp.startTime>=parsed()||frames>=2))start()};` +
  `if(lcpApi)new P(l=>{const e=l.getEntries();lcp=e[e.length-1];ready()}).observe({type:"largest-contentful-paint",buffered:!0});` +
  // Events, not timers, drive it (a test's fake clock must not hold the page's script back);
  // the buyer's first touch or key starts it at once, and a timer is the last resort.
  `d.addEventListener("DOMContentLoaded",()=>{ready();frame()});w.addEventListener("load",ready);d.addEventListener("visibilitychange",ready);` +
  `for(const t of["pointerdown","keydown","touchstart"])w.addEventListener(t,start,{capture:!0,passive:!0});` +
  `setTimeout(start,3e3)})();`;

const attribute = (attributes, name) => {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes);
  return match ? match[1].replaceAll("&amp;", "&") : undefined;
};

const isNextChunk = (src) => src !== undefined && src.startsWith("/_next/static/");

/** A runtime-free page: without the parts of Next's client runtime, everything else as it was. */
const stripRuntime = (html) =>
  html.replace(RUNTIME_PART, (tag, scriptAttributes, code, linkAttributes) => {
    if (linkAttributes !== undefined) {
      const preloadsScript = /\brel="preload"/.test(linkAttributes) && /\bas="script"/.test(linkAttributes);
      return preloadsScript && isNextChunk(attribute(linkAttributes, "href")) ? "" : tag;
    }
    if (isNextChunk(attribute(scriptAttributes, "src"))) return "";
    return RSC_PAYLOAD.test(code) ? "" : tag;
  });

/**
 * A streaming rewriter for one HTML response: `push` each chunk, then `flush`. Tags split
 * across chunks are held back until complete, and the page until it is known whether it ships
 * Next's runtime (deferred) or not (stripped).
 */
export function createScriptDeferrer() {
  const decoder = new TextDecoder();
  let carry = "";
  let loaderWritten = false;
  /** @type {"undecided" | "defer" | "strip"} */
  let mode = "undecided";
  let held = "";

  const defer = (html) =>
    html.replace(SCRIPT_TAG, (tag, attributes) => {
      const src = attribute(attributes, "src");
      if (!isNextChunk(src) || !/\basync\b/.test(attributes) || /\bnomodule\b/.test(attributes)) return tag;
      const nonce = attribute(attributes, "nonce");
      const code = `${loaderWritten ? "" : LOADER}self.${LOADER_GLOBAL}(${JSON.stringify(src).replaceAll("<", "\\u003c")})`;
      loaderWritten = true;
      return `<script${nonce === undefined ? "" : ` nonce="${nonce}"`}>${code}</script>`;
    });

  const rewrite = (html, last) => {
    if (mode === "undecided") {
      held += html;
      if (NO_RUNTIME_MARKER.test(held)) mode = "strip";
      else if (held.includes("</head>") || last) mode = "defer";
      else return "";
      [html, held] = [held, ""];
    }
    return mode === "strip" ? stripRuntime(html) : defer(html);
  };

  return {
    /** @param {Buffer | Uint8Array} chunk */
    push(chunk) {
      const text = carry + decoder.decode(chunk, { stream: true });
      // Hold back an unfinished script element, or an unfinished tag at the very end.
      let cut = text.length;
      const lastScript = text.lastIndexOf("<script");
      if (lastScript >= 0 && text.indexOf("</script>", lastScript) < 0) cut = lastScript;
      const lastOpen = text.lastIndexOf("<", cut - 1);
      if (lastOpen >= 0 && text.indexOf(">", lastOpen) < 0) cut = Math.min(cut, lastOpen);
      carry = text.slice(cut);
      return rewrite(text.slice(0, cut), false);
    },
    flush() {
      const rest = carry + decoder.decode();
      carry = "";
      return rewrite(rest, true);
    },
  };
}

/**
 * Patches a Node response so an HTML body goes through the rewriter. Call it after any
 * compression middleware has patched the response (the rewriter must see plain text).
 * @param {import("node:http").ServerResponse} response
 */
export function deferPageScripts(response) {
  const { write, end, writeHead } = response;
  /** @type {ReturnType<typeof createScriptDeferrer> | null | undefined} */
  let deferrer;
  const decide = (headers) => {
    if (deferrer === undefined) {
      const given = headers && typeof headers === "object" && !Array.isArray(headers) ? Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] : undefined;
      const type = String(given ?? response.getHeader("content-type") ?? "");
      deferrer = type.startsWith("text/html") ? createScriptDeferrer() : null;
      // The body changes length: it is sent chunked (or compressed) instead.
      if (deferrer && !response.headersSent) response.removeHeader("content-length");
    }
    return deferrer;
  };
  response.writeHead = function (...args) {
    const headers = args.find((arg) => arg && typeof arg === "object" && !Array.isArray(arg));
    if (decide(headers) && headers) for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-length") delete headers[name];
    return writeHead.apply(this, args);
  };
  response.write = function (chunk, encoding, callback) {
    const rewriter = decide();
    if (!rewriter || chunk == null) return write.apply(this, arguments);
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    const out = rewriter.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    return write.call(this, out, "utf8", callback);
  };
  response.end = function (chunk, encoding, callback) {
    const rewriter = decide();
    if (!rewriter) return end.apply(this, arguments);
    if (typeof chunk === "function") [callback, chunk, encoding] = [chunk, undefined, undefined];
    else if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    let out = chunk == null ? "" : rewriter.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    out += rewriter.flush();
    return end.call(this, out, "utf8", callback);
  };
}

/**
 * The servers' hook (server/serve.mjs, server/dev.mjs), called on each request before Next.js
 * handles it, after any compression middleware: a page goes through the rewriter; the API (its
 * hot paths, JSON only) skips the patching altogether.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 */
export function rewritePageResponse(request, response) {
  if (!request.url?.startsWith("/api/")) deferPageScripts(response);
}
