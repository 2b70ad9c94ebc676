export { formatTable, formatNumber, formatInterval, formatPercent } from './table.js';
export { nonInferiorityHeadline, formatNonInferiorityReport } from './gate.js';
export {
  comparePairReport,
  compareAllReport,
  formatComparePair,
  formatCompareAll,
  type ComparePairReport,
  type CompareAllReport,
  type CompareReportSettings,
  type ComparePValueTest,
} from './compare.js';
export {
  escapeHtml,
  REPORT_CSS,
  tableHtml,
  settingsHtml,
  warningsHtml,
  figureHtml,
  htmlPage,
  sectionHtml,
  reportHtml,
  type ReportTable,
  type ReportFigure,
  type ReportSection,
  type ReportInput,
  type ReportDocument,
} from './html.js';
export { buildReport, type ReportSources, type BuildReportOptions } from './build.js';
export { fingerprintFile, fingerprintFolder } from './fingerprint.js';
export type { ReportSettings } from './sections/settings.js';
export { markdownText, markdownTable, markdownLevel, markdownPValue } from './markdown.js';
export { compareMarkdown, compareVerdictMarkdown, type CompareMarkdownOptions } from './markdown-compare.js';
export { gateMarkdown, gateVerdictMarkdown } from './markdown-gate.js';
export { headlineMarkdown, headlineVerdictMarkdown, type HeadlineMarkdownOptions } from './markdown-headline.js';
export { sweepMarkdown, sweepVerdictMarkdown } from './markdown-sweep.js';
