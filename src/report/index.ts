export { formatTable, formatNumber, formatInterval, formatPercent } from './table.js';
export { nonInferiorityHeadline, formatNonInferiorityReport } from './gate.js';
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
