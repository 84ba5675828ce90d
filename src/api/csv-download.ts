// A CSV file as a download, the same for every export: the content type, the name the browser
// saves it under, and a byte-order mark first, without which spreadsheet programs read UTF-8
// (Korean names, accents) as their local encoding.
import type { FastifyReply } from 'fastify';

/** The reply with the headers of a CSV file saved as `fileName`; its body must start with BYTE_ORDER_MARK. */
export const asCsvFile = (reply: FastifyReply, fileName: string): FastifyReply =>
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`);

export const BYTE_ORDER_MARK = '\uFEFF';

/** Answers with `csv` as a file saved as `fileName`. */
export const sendCsv = (reply: FastifyReply, fileName: string, csv: string): FastifyReply =>
  asCsvFile(reply, fileName).send(`${BYTE_ORDER_MARK}${csv}`);
