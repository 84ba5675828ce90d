// The page a shared statistics address shows (contract: "Filters and shared statistics"): one
// short URL's dashboard, read-only, rendered on the server: its title and address, the period
// (last 7, 30 or 90 days, as links), the totals, clicks per day as an inline SVG with the same
// figures as a table, and the top lists; regions and cities too when the service's GeoIP database
// tells them (as the console shows them). No script; the inline style carries the page's nonce.
// Every interpolated value is escaped. English only for now.
import type { SharedPeriod, SharedStats } from '../../core/stats/link-shares.js';
import { SHARED_PERIODS } from '../../core/stats/link-shares.js';
import { escapeHtml } from '../../shared/html.js';
import { linkAddress } from '../../core/links/link-rules.js';

interface Item {
  name: string;
  count: number;
  percentage: number;
}

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;color:#1f2328;background:#f6f8fa}
  main{max-width:64rem;margin:0 auto;padding:24px}h1{font-size:1.5rem;margin:0 0 4px;overflow-wrap:anywhere}
  h2{font-size:1.05rem;margin:0 0 8px}.muted{color:#57606a;margin:0 0 16px;overflow-wrap:anywhere}
  nav ul{list-style:none;display:flex;gap:8px;padding:0;margin:0 0 16px}
  nav a{display:inline-block;padding:6px 12px;border:1px solid #8c959f;border-radius:8px;color:#0550ae;text-decoration:none}
  nav a[aria-current="page"]{background:#0969da;border-color:#0969da;color:#fff;font-weight:600}
  nav a:focus-visible{outline:3px solid #0969da;outline-offset:2px}
  .totals{display:flex;gap:16px;flex-wrap:wrap;margin:0 0 16px}.totals div{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:12px 20px}
  .totals dt{color:#57606a;font-size:.875rem}.totals dd{margin:0;font-size:1.75rem;font-weight:700}
  section{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:16px;margin:0 0 16px}
  .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:16px}.grid section{margin:0}
  svg{width:100%;height:auto;display:block}table{width:100%;border-collapse:collapse;font-size:.9rem}
  th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #eaeef2;overflow-wrap:anywhere}td.n,th.n{text-align:right;white-space:nowrap}
  summary{cursor:pointer;color:#0550ae;margin-top:8px}`;

const number = new Intl.NumberFormat('en');
const countryNames = new Intl.DisplayNames('en', { type: 'region' });

/** An ISO 3166-2 region beside its country's name, as the console shows it: "KR-11 (South Korea)". */
const regionName = (code: string) => `${code} (${countryNames.of(code.slice(0, 2)) ?? code.slice(0, 2)})`;

/** One top list as a table: name, clicks, share. */
function topTable(id: string, title: string, items: Item[], what = 'Name'): string {
  const rows = items.length
    ? items
        .map(
          (i) =>
            `<tr><th scope="row">${escapeHtml(i.name)}</th><td class="n">${number.format(i.count)}</td><td class="n">${i.percentage}%</td></tr>`,
        )
        .join('')
    : '<tr><td colspan="3">No clicks yet</td></tr>';
  return (
    `<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2><table>` +
    `<thead><tr><th scope="col">${what}</th><th scope="col" class="n">Clicks</th><th scope="col" class="n">Share</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></section>`
  );
}

/** Clicks per day as bars, with the figures as a table for screen readers and anyone who wants them. */
function dailyChart(daily: { date: string; count: number }[]): string {
  const width = 720;
  const height = 180;
  const max = Math.max(1, ...daily.map((d) => d.count));
  const step = daily.length ? width / daily.length : width;
  const bars = daily
    .map((d, i) => {
      const h = Math.round((d.count / max) * (height - 20));
      return `<rect x="${(i * step + step * 0.1).toFixed(1)}" y="${height - h}" width="${(step * 0.8).toFixed(1)}" height="${h}" fill="#0969da"><title>${d.date}: ${d.count}</title></rect>`;
    })
    .join('');
  const first = daily[0]?.date ?? '';
  const last = daily[daily.length - 1]?.date ?? '';
  const total = daily.reduce((a, d) => a + d.count, 0);
  const rows = daily
    .map((d) => `<tr><th scope="row">${d.date}</th><td class="n">${number.format(d.count)}</td></tr>`)
    .join('');
  return (
    `<section aria-labelledby="daily"><h2 id="daily">Clicks per day</h2>` +
    `<svg viewBox="0 0 ${width} ${height + 20}" role="img" aria-labelledby="daily-desc"><desc id="daily-desc">` +
    `${number.format(total)} clicks from ${first} to ${last}, at most ${number.format(max)} on one day</desc>` +
    `<line x1="0" y1="${height}" x2="${width}" y2="${height}" stroke="#8c959f"/>${bars}` +
    `<text x="0" y="${height + 16}" font-size="12" fill="#57606a">${first}</text>` +
    `<text x="${width}" y="${height + 16}" font-size="12" fill="#57606a" text-anchor="end">${last}</text></svg>` +
    `<details><summary>Clicks per day as a table</summary><table><thead><tr><th scope="col">Date</th>` +
    `<th scope="col" class="n">Clicks</th></tr></thead><tbody>${rows}</tbody></table></details></section>`
  );
}

export function sharedStatsPage(options: {
  found: SharedStats;
  days: SharedPeriod;
  publicBaseUrl: string;
  nonce: string;
}): string {
  const { url, stats, period, geo } = options.found;
  const address = linkAddress(options.publicBaseUrl, url.customDomainName, url.shortCode);
  const title = url.title?.trim() || address;
  const from = period.actualStartDate ?? period.requestedStartDate;
  const to = period.actualEndDate ?? period.requestedEndDate;
  const periods = SHARED_PERIODS.map(
    (d) => `<li><a href="?days=${d}"${d === options.days ? ' aria-current="page"' : ''}>Last ${d} days</a></li>`,
  ).join('');
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    `<p class="muted">Statistics of <a href="${escapeHtml(address)}" rel="noreferrer">${escapeHtml(address)}</a>, ` +
    `${from} to ${to} (${escapeHtml(period.timeZone)}). Read-only, shared by the link's owner.</p>` +
    `<nav aria-label="Period"><ul>${periods}</ul></nav>` +
    `<dl class="totals"><div><dt>Clicks</dt><dd>${number.format(stats.total)}</dd></div>` +
    `<div><dt>Unique visitors</dt><dd>${number.format(stats.uniqueVisitors)}</dd></div></dl>` +
    dailyChart(stats.daily) +
    `<div class="grid">` +
    topTable('countries', 'Top countries', stats.countries, 'Country') +
    topTable('referrers', 'Top referrers', stats.referrers, 'Referrer') +
    topTable('browsers', 'Top browsers', stats.browsers, 'Browser') +
    topTable('os', 'Top operating systems', stats.operatingSystems, 'Operating system') +
    topTable('devices', 'Devices', stats.deviceTypes, 'Device') +
    topTable(
      'destinations',
      'Destinations',
      stats.destinationStats.map((d) => ({ name: d.url, count: d.count, percentage: d.percentage })),
      'Destination',
    ) +
    (geo.regions
      ? topTable(
          'regions',
          'Top regions',
          stats.regions.map((r) => ({ ...r, name: regionName(r.name) })),
          'Region',
        )
      : '') +
    (geo.cities ? topTable('cities', 'Top cities', stats.cities, 'City') : '') +
    `</div>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)}: statistics</title><style nonce="${options.nonce}">${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}
