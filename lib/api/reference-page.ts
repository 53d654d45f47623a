import { Marked } from "marked";

/**
 * GET /docs: the API reference rendered on the server from the OpenAPI document, as one
 * HTML page with no script at all (nothing can leak into the hosted pages, and the strict
 * CSP needs no exception) and one nonce'd stylesheet that reflows for a phone. Markdown in
 * the document (our own, from the repository) is rendered by marked.
 */

type Json = Record<string, any>;
const markdown = new Marked({ gfm: true });
const md = (text: string | undefined) => (text ? (markdown.parse(text, { async: false }) as string) : "");
const escape = (text: unknown) =>
  String(text ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function resolve(document: Json, schema: Json | undefined): Json {
  let current = schema ?? {};
  for (let depth = 0; current.$ref && depth < 10; depth += 1) {
    current = document.components.schemas[String(current.$ref).split("/").pop()!] ?? {};
  }
  return current;
}

function typeOf(document: Json, schema: Json): string {
  const s = resolve(document, schema);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((value: unknown) => JSON.stringify(value)).join(" | ");
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf).map((part: Json) => typeOf(document, part)).join(" or ");
  if (s.type === "array") return `array of ${typeOf(document, s.items ?? {})}`;
  return [s.type ?? "any", s.format ? `(${s.format})` : ""].filter(Boolean).join(" ");
}

/** A table of an object schema's fields, nested objects one level down as `parent.child`. */
function fieldsTable(document: Json, schema: Json | undefined, prefix = ""): string {
  const s = resolve(document, schema);
  const target = s.type === "array" ? resolve(document, s.items) : s;
  const properties: Json = target.properties ?? {};
  const rows = Object.entries(properties).flatMap(([name, property]) => {
    const field = resolve(document, property as Json);
    const required = (target.required ?? []).includes(name) ? " <b>required</b>" : "";
    const notes = md(field.description ?? (property as Json).description);
    const row =
      `<tr><td><code>${escape(prefix + name)}</code>${required}</td>` +
      `<td>${escape(typeOf(document, property as Json))}</td><td>${notes}</td></tr>`;
    const nested =
      !prefix && field.type === "object" && field.properties ? fieldsTable(document, field, `${name}.`) : "";
    return [row, nested];
  });
  if (rows.length === 0) return "";
  const table = rows.join("");
  return prefix
    ? table
    : `<div class="scroll"><table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead>` +
        `<tbody>${table}</tbody></table></div>`;
}

function operationSection(document: Json, method: string, path: string, operation: Json): string {
  const parameters: Json[] = operation.parameters ?? [];
  const success = Object.entries(operation.responses ?? {}).find(([code]) => code.startsWith("2"));
  const errors = Object.entries(operation.responses ?? {}).filter(([code]) => Number(code) >= 400);
  const data =
    success && resolve(document, (success[1] as Json).content?.["application/json"]?.schema)?.properties?.data;
  const description = md(operation.description);
  const parameterRow = (p: Json) =>
    `<tr><td><code>${escape(p.name)}</code>${p.required ? " <b>required</b>" : ""}</td><td>${escape(p.in)}</td>` +
    `<td>${escape(typeOf(document, p.schema ?? {}))} ${md(p.description)}</td></tr>`;
  const parametersPart =
    parameters.length > 0
      ? `<h4>Parameters</h4><div class="scroll"><table><thead><tr><th>Name</th><th>In</th><th>Notes</th></tr></thead>` +
        `<tbody>${parameters.map(parameterRow).join("")}</tbody></table></div>`
      : "";
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  const bodyPart = operation.requestBody
    ? `<h4>Body</h4>${fieldsTable(document, bodySchema) || "<p><code>{}</code></p>"}`
    : "";
  const successPart = success
    ? `<h4>${escape(success[0])}: <code>data</code></h4>` +
      (data
        ? fieldsTable(document, data) || `<p>${escape(typeOf(document, data))}</p>`
        : `<p>${escape((success[1] as Json).description)}</p>`)
    : "";
  const errorItems = errors.map(
    ([code, response]) => `<li><b>${escape(code)}</b> ${md((response as Json).description)}</li>`,
  );
  const errorsPart = errors.length > 0 ? `<h4>Errors</h4><ul class="errors">${errorItems.join("")}</ul>` : "";
  return `<section id="${slug(operation.operationId)}" class="op">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p class="summary">${escape(operation.summary)}</p>
${description}
${parametersPart}
${bodyPart}
${successPart}
${errorsPart}
</section>`;
}

// A backslash ending a line continues it: the text has no line break there.
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,sans-serif;color:#1c1c1e;background:#fff}
main{max-width:980px;margin:0 auto;padding:1rem}nav{font-size:.95rem}nav ul{padding-left:1.1rem}
h1{font-size:1.7rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}h3{font-size:1.05rem;word-break:break-all}
code{font:.9em ui-monospace,monospace;background:#f3f3f5;padding:.05em .3em;border-radius:4px}
pre{overflow-x:auto;background:#f3f3f5;padding:.7rem;border-radius:6px}pre code{padding:0}
.scroll{overflow-x:auto}:not(.scroll)>table{display:block;overflow-x:auto}\
table{border-collapse:collapse;width:100%;font-size:.92rem}\
th,td{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
td p{margin:0}.op{border-top:1px solid #eee;padding-top:.6rem}.summary{font-weight:600}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;\
padding:.1em .4em;background:#555}
.get{background:#1f6feb}.post{background:#1a7f37}.put{background:#9a6700}.delete{background:#cf222e}\
.errors li p{display:inline}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}code,pre{background:#222}\
th,td{border-color:#333}.op{border-color:#333}}
`;

export function renderReferencePage(document: Json, options: { nonce?: string } = {}): string {
  const byTag = new Map<string, string[]>();
  const nav = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const tag = (operation as Json).tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(document, method, path, operation as Json)]);
      nav.set(tag, [
        ...(nav.get(tag) ?? []),
        `<li><a href="#${slug((operation as Json).operationId)}">${escape((operation as Json).summary)}</a></li>`,
      ]);
    }
  }
  const webhooks = Object.entries((document.webhooks ?? {}) as Json)
    .map(([name, item]) => operationSection(document, "post", name, (item as Json).post))
    .join("");
  const nonce = options.nonce ? ` nonce="${escape(options.nonce)}"` : "";
  const navigation = [...nav]
    .map(([tag, items]) => `<details><summary>${escape(tag)}</summary><ul>${items.join("")}</ul></details>`)
    .join("");
  // As in STYLE, a backslash ending a line continues it.
  return `<!doctype html><html lang="en"><head>\
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style${nonce}>${STYLE}</style></head><body><main>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p><a href="/docs/first-payment">Take your first payment</a> · \
<a href="/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1, for generators and tools)</p>
<nav aria-label="Operations">${navigation}<p><a href="#notifications">Notifications (webhooks)</a></p></nav>
${md(document.info.description)}
${[...byTag].map(([tag, sections]) => `<h2 id="${slug(tag)}">${escape(tag)}</h2>${sections.join("")}`).join("")}
<h2 id="notifications">Notifications (webhooks)</h2>${webhooks}
</main></body></html>`;
}

/** A Markdown page of docs/ (the first-payment guide) in the same frame. */
export function renderMarkdownPage(title: string, text: string, options: { nonce?: string } = {}): string {
  const nonce = options.nonce ? ` nonce="${escape(options.nonce)}"` : "";
  return `<!doctype html><html lang="en"><head>\
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style${nonce}>${STYLE}</style></head><body><main>${md(text)}</main></body></html>`;
}
