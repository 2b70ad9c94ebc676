export { formatTable, formatNumber, formatInterval, formatPercent } from './table.js';
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
