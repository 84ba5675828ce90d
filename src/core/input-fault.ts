// A value the database refused because of what the request sent (invalid text, too long, out of
// range): the input's fault, a 400 rather than a 500. How a store's errors read is the store's
// knowledge (src/oltp); the HTTP edge asks here.
export { inputFaultOf } from '../oltp/sql-helpers.js';
