// Calendar dates live in src/data (the cost policy's decision date uses them too).
export { isIsoDate, isoDateToDays, daysToIsoDate } from '../data/dates.js';
