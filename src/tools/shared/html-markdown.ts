/**
 * HTML to Markdown of the page's main content, for WebFetch. linkedom parses (fast, no layout);
 * Mozilla Readability finds the article when the page is one; otherwise the page's own landmarks
 * (main, role=main, article) are used with the site furniture (navigation, sidebars, headers,
 * footers, forms, scripts) removed; turndown with the GFM plugin writes the Markdown (tables,
 * fenced code with its language). Loaded only when a session fetches an HTML page.
 */
import type { Readability } from "@mozilla/readability";
import type { parseHTML } from "linkedom";
import type TurndownService from "turndown";
import { htmlLibs } from "./html-libs.ts";

export interface PageMarkdown {
  title: string;
  markdown: string;
  /** Readability recognised an article (else the page's landmarks were used). */
  article: boolean;
  /** Characters of the whole page when only its start was converted. */
  prunedFrom?: number;
}

/** HTML converted at most: a few hundred thousand characters make far more text than a prompt reads. */
const MAX_HTML_CHARS = 1_500_000;

const FURNITURE = [
  "script", "style", "noscript", "template", "iframe", "svg", "canvas", "form", "button", "input", "select", "textarea",
  "nav", "header", "footer", "aside", "[role=navigation]", "[role=banner]", "[role=contentinfo]", "[role=search]",
  "[role=complementary]", "[aria-hidden=true]", "[hidden]", ".sphinxsidebar", ".related", ".footer", ".headerlink",
].join(",");

const MAIN_CANDIDATES = ["main", "[role=main]", "article", "#content", "#main", ".content", "body"];

type PageDocument = ReturnType<typeof parseHTML>["document"];
type PageElement = NonNullable<ReturnType<PageDocument["querySelector"]>>;

/** Links and images made absolute against the page, so the model can follow them. */
function absolutise(root: PageElement, pageUrl: string): void {
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const element of root.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (!value || value.startsWith("#") || /^(javascript|data):/i.test(value)) continue;
      try {
        element.setAttribute(attribute, new URL(value, pageUrl).href);
      } catch {
        // A malformed link is left as written.
      }
    }
  }
}

/** Sphinx and Pygments mark a code block's language on a wrapper (`highlight-python`); turndown reads it from the code element. */
function markCodeLanguages(root: PageElement): void {
  for (const pre of root.querySelectorAll("pre")) {
    let language: string | undefined;
    for (let node: PageElement | null = pre; node && !language; node = node.parentElement as PageElement | null) {
      const classes = node.getAttribute("class") ?? "";
      language = /(?:^|\s)(?:highlight|language|lang)-([\w+#-]+)/.exec(classes)?.[1];
    }
    if (!language || language === "default" || language === "none") language = language === "default" ? "python3" : undefined;
    if (language === "python3" || language === "pycon" || language === "py") language = "python";
    const code = pre.querySelector("code");
    if (code) {
      if (language && !/language-/.test(code.getAttribute("class") ?? "")) code.setAttribute("class", `language-${language}`);
      continue;
    }
    // turndown fences only <pre><code>: wrap the block's text in one.
    const document = pre.ownerDocument;
    const wrapped = document.createElement("code");
    if (language) wrapped.setAttribute("class", `language-${language}`);
    wrapped.textContent = pre.textContent ?? "";
    pre.textContent = "";
    pre.appendChild(wrapped);
  }
}

let converter: TurndownService | undefined;
function turndown(): TurndownService {
  if (converter) return converter;
  converter = new htmlLibs.TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  converter.use(htmlLibs.gfm);
  converter.remove(["script", "style", "noscript", "template"]);
  return converter;
}

/** The page's main landmarks: every outermost match of the first selector that has text (a page may repeat one). */
function landmarkContent(document: PageDocument): PageElement[] {
  for (const selector of MAIN_CANDIDATES) {
    const found = [...document.querySelectorAll(selector)].filter((element) => (element.textContent ?? "").trim().length > 0);
    const outermost = found.filter((element) => !found.some((other) => other !== element && other.contains(element)));
    if (outermost.length > 0) return outermost as PageElement[];
  }
  return [document.documentElement as PageElement];
}

/** A page made by a documentation generator (Sphinx, MkDocs, Docusaurus…) keeps its code and tables better by landmarks. */
function isDocumentationPage(document: PageDocument): boolean {
  const generator = document.querySelector('meta[name="generator"]')?.getAttribute("content") ?? "";
  return /sphinx|mkdocs|docusaurus|hugo|jekyll|vitepress|docfx|rustdoc|javadoc|typedoc/i.test(generator) || document.querySelector("[role=main] pre, main pre") !== null;
}

function tidy(markdown: string): string {
  return markdown.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").trim();
}

/** The page's main content as HTML fragments ready to convert, before any Markdown is written. */
export interface MainContent {
  title: string;
  /** One fragment per landmark (or the article), furniture removed, links absolute, code languages marked. */
  fragments: string[];
  article: boolean;
  prunedFrom?: number;
}

export function mainContent(html: string, pageUrl: string): MainContent {
  const pruned = html.length > MAX_HTML_CHARS;
  const { document } = htmlLibs.parseHTML(pruned ? html.slice(0, MAX_HTML_CHARS) : html);
  const pageTitle = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  let title = pageTitle;
  let content: string | undefined;
  let article = false;

  if (!isDocumentationPage(document)) {
    // Readability edits the tree it reads: give it a copy so the landmark path still has the page.
    const copy = htmlLibs.parseHTML(document.toString()).document;
    const found = new htmlLibs.Readability(copy as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 300 }).parse();
    if (found?.content && (found.textContent ?? "").trim().length >= 300) {
      article = true;
      title = (found.title ?? "").trim() || pageTitle;
      content = found.content;
    }
  }

  const roots = content !== undefined ? [htmlLibs.parseHTML(`<!doctype html><html><body>${content}</body></html>`).document.body as PageElement] : landmarkContent(document);
  const fragments = roots.map((root) => {
    if (content === undefined) for (const element of root.querySelectorAll(FURNITURE)) element.remove();
    absolutise(root, pageUrl);
    markCodeLanguages(root);
    return root.innerHTML;
  });
  return { title, fragments, article, ...(pruned ? { prunedFrom: html.length } : {}) };
}

/** The Markdown of converted fragments, titled once. */
export function assembleMarkdown(title: string, parts: readonly string[]): string {
  let body = tidy(parts.join("\n\n"));
  // The article's own heading often repeats the title.
  if (title && body.startsWith(`# ${title}`)) body = body.slice(title.length + 2).trimStart();
  return title ? `# ${title}\n\n${body}` : body;
}

export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const main = mainContent(html, pageUrl);
  const markdown = assembleMarkdown(main.title, main.fragments.map((fragment) => turndown().turndown(fragment)));
  return { title: main.title, markdown, article: main.article, ...(main.prunedFrom !== undefined ? { prunedFrom: main.prunedFrom } : {}) };
}
