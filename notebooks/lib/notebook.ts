/**
 * A small literate-notebook page builder: prose (a Markdown subset), the notebook's own code
 * (regions of its source file), outputs and charts, written as one self-contained HTML page
 * with the report's style sheet. Notebooks call benchplan only through its public API
 * (src/index.ts); this helper uses the same API for escaping, tables and charts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TopLevelSpec } from 'vega-lite';
import { escapeHtml, figureHtml, htmlPage, tableHtml, writeFileAtomic, type ReportTable } from '../../src/index.js';

/** Inline Markdown: `code`, **bold**, *emphasis*, on text that is escaped first. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
}

/**
 * A Markdown subset to HTML: `##`/`###` headings (`#` is taken as `##`: the page title is the h1), `- ` lists, `> ` quotes and paragraphs
 * separated by blank lines; inline code, bold and emphasis. Everything is escaped first.
 */
export function markdownHtml(markdown: string): string {
  const blocks = dedent(markdown).trim().split(/\n\s*\n/);
  return blocks
    .map((block) => {
      const heading = /^(#{1,3}) (.*)$/s.exec(block);
      if (heading) {
        const level = Math.max(2, heading[1].length); // the page title is the only h1
        return `<h${level}>${inline(heading[2].replace(/\s+/g, ' '))}</h${level}>`;
      }
      const lines = block.split('\n');
      if (lines.every((line) => /^\s*- /.test(line) || /^\s{2,}\S/.test(line))) {
        const items: string[] = [];
        for (const line of lines) {
          if (/^\s*- /.test(line)) items.push(line.replace(/^\s*- /, ''));
          else items[items.length - 1] += ` ${line.trim()}`;
        }
        return `<ul>${items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`;
      }
      if (lines.every((line) => line.startsWith('>'))) return `<blockquote><p>${inline(lines.map((l) => l.replace(/^>\s?/, '')).join(' '))}</p></blockquote>`;
      return `<p>${inline(block.replace(/\s*\n\s*/g, ' '))}</p>`;
    })
    .join('\n');
}

/** Removes the common leading indentation of the non-blank lines. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut)).join('\n');
}

/**
 * The text of a `// #region NAME` … `// #endregion` block of a source file, dedented.
 * @throws {Error} when the region is missing.
 */
export function sourceRegion(source: string, name: string): string {
  const pattern = new RegExp(`^[ \\t]*// #region ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*\\n([\\s\\S]*?)^[ \\t]*// #endregion`, 'm');
  const match = pattern.exec(source);
  if (!match) throw new Error(`notebook: no region "${name}" in the source`);
  return dedent(match[1]).trimEnd();
}

/** One notebook page under construction. */
export class Notebook {
  private readonly parts: string[] = [];
  private readonly source: string;
  private charts = 0;

  /**
   * @param moduleUrl the notebook's `import.meta.url` (its code regions are read from there).
   * @param file the page's file name, e.g. `01-cancellation.html`.
   * @param title the page title.
   */
  constructor(
    moduleUrl: string,
    readonly file: string,
    readonly title: string,
  ) {
    this.source = readFileSync(fileURLToPath(moduleUrl), 'utf8');
    this.parts.push(`<h1>${escapeHtml(title)}</h1>`);
  }

  /** Prose, in the Markdown subset of markdownHtml. */
  md(markdown: string): this {
    this.parts.push(markdownHtml(markdown));
    return this;
  }

  /** Shows the code of a `// #region NAME` block of the notebook's own source. */
  code(region: string): this {
    this.parts.push(`<pre class="code"><code>${escapeHtml(sourceRegion(this.source, region))}</code></pre>`);
    return this;
  }

  /** Shows text output (a table from formatTable, a number, a sentence). */
  output(text: string): this {
    this.parts.push(`<pre class="output">${escapeHtml(text)}</pre>`);
    return this;
  }

  /** Shows a table (numbers formatted, text escaped). */
  table(table: ReportTable): this {
    this.parts.push(tableHtml(table));
    return this;
  }

  /** Draws a vega-lite spec inline as SVG. */
  async chart(spec: TopLevelSpec, caption?: string): Promise<this> {
    this.charts += 1;
    this.parts.push(await figureHtml(caption === undefined ? { spec } : { spec, caption }, `n${this.charts}`));
    return this;
  }

  /** The page's HTML. */
  html(): string {
    return htmlPage(this.title, `${this.parts.join('\n')}\n<footer>A benchplan notebook: every number above was computed by the code shown, through benchplan's public API, when this page was built. The data are SYNTHETIC.</footer>`);
  }

  /** Writes the page into `outDir` atomically; returns its path. */
  write(outDir: string): string {
    const path = join(outDir, this.file);
    writeFileAtomic(path, this.html());
    return path;
  }
}
