export { formatTable, formatNumber, formatInterval, formatPercent } from './table.js';
