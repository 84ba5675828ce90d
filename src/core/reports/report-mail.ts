// A report's mail, in the member's language (Korean or English): the period's clicks and visitors
// with their change, the busiest links, countries and devices, the chart of clicks per day shown
// inline (cid:), a link to the dashboard and the one-click unsubscribe link (also as the
// List-Unsubscribe header, with List-Unsubscribe-Post for mail programs that unsubscribe by POST).
import type { MailMessage } from '../../mail/mailer.js';
import type { ReportFrequency } from '../../oltp/report-subscriptions.repo.js';
import { escapeHtml as e } from '../../shared/html.js';
import type { Language } from '../../shared/roles.js';
import type { TopItem } from '../../olap/click-stats.queries.js';
import type { ReportFigures } from './report-figures.js';
import type { LocalRange } from './report-period.js';

const CHART_CID = 'report-chart@signpost';

const WORDS = {
  ko: {
    weekly: '주간',
    monthly: '월간',
    subject: (kind: string, name: string, range: string) => `[Signpost] ${name} ${kind} 보고서 (${range})`,
    heading: (kind: string, name: string) => `${name} ${kind} 클릭 보고서`,
    organization: (org: string) => `${org} 조직 전체`,
    tag: (tag: string) => `태그 ${tag}`,
    clicks: '클릭',
    visitors: '방문자',
    previous: '이전 기간',
    change: (value: string) => `이전 기간 대비 ${value}`,
    noPrevious: '이전 기간에는 클릭이 없었습니다',
    topLinks: '클릭이 많은 링크',
    countries: '국가',
    devices: '기기',
    none: '기록이 없습니다',
    chartTitle: (name: string) => `${name} 일별 클릭`,
    open: '대시보드 열기',
    unsubscribe: '이 보고서 수신 거부',
    why: (org: string) => `${org} 조직의 보고서를 구독하셨기 때문에 이 메일을 받았습니다.`,
    device: { mobile: '모바일', tablet: '태블릿', desktop: '데스크톱' } as Record<string, string>,
    unknown: '알 수 없음',
  },
  en: {
    weekly: 'Weekly',
    monthly: 'Monthly',
    subject: (kind: string, name: string, range: string) => `[Signpost] ${kind} report: ${name} (${range})`,
    heading: (kind: string, name: string) => `${kind} clicks report: ${name}`,
    organization: (org: string) => `All of ${org}`,
    tag: (tag: string) => `Tag ${tag}`,
    clicks: 'Clicks',
    visitors: 'Visitors',
    previous: 'previous period',
    change: (value: string) => `${value} against the previous period`,
    noPrevious: 'No clicks in the previous period',
    topLinks: 'Busiest links',
    countries: 'Countries',
    devices: 'Devices',
    none: 'Nothing recorded',
    chartTitle: (name: string) => `${name}: clicks per day`,
    open: 'Open the dashboard',
    unsubscribe: 'Unsubscribe from this report',
    why: (org: string) => `You get this mail because you subscribed to a report of ${org}.`,
    device: { mobile: 'Mobile', tablet: 'Tablet', desktop: 'Desktop' } as Record<string, string>,
    unknown: 'Unknown',
  },
} as const;

export type ReportWords = (typeof WORDS)[Language];
export const reportWords = (language: Language): ReportWords => WORDS[language];

/** What the report is of, in words: the organization, a tag or a link's name. */
export function scopeName(language: Language, scope: { type: string; name: string }, organizationName: string) {
  const w = WORDS[language];
  if (scope.type === 'organization') return w.organization(organizationName);
  if (scope.type === 'tag') return w.tag(scope.name);
  return scope.name;
}

export function reportMail(options: {
  to: string;
  language: Language;
  frequency: ReportFrequency;
  organizationName: string;
  /** scopeName()'s words. */
  name: string;
  period: LocalRange;
  figures: ReportFigures;
  /** The chart; null: the mail goes without it. */
  chartPng: Buffer | null;
  dashboardUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const { language: lang, figures: f } = options;
  const w = WORDS[lang];
  const kind = w[options.frequency];
  const range = `${options.period.startDate} ~ ${options.period.endDate}`;
  const n = new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'ko-KR');
  const change = (value: number | null) =>
    value === null ? w.noPrevious : w.change(`${value > 0 ? '+' : ''}${n.format(value)}%`);
  const regions = new Intl.DisplayNames([lang], { type: 'region' });
  const country = (code: string) => {
    try {
      return code && code.length === 2 ? (regions.of(code.toUpperCase()) ?? code) : w.unknown;
    } catch {
      return code || w.unknown;
    }
  };
  const device = (name: string) => w.device[name.toLowerCase()] ?? (name || w.unknown);
  const list = (items: TopItem[], label: (name: string) => string) =>
    items
      .filter((i) => i.count > 0)
      .map((i) => ({ name: label(i.name), value: `${n.format(i.count)} (${n.format(i.percentage)}%)` }));

  const totals = [
    { name: w.clicks, value: n.format(f.current.total), note: change(f.totalChange) },
    { name: w.visitors, value: n.format(f.current.visitors), note: change(f.visitorsChange) },
  ];
  const sections: { title: string; rows: { name: string; value: string }[] }[] = [];
  if (f.current.topLinks.length > 0 || f.previous.topLinks.length > 0)
    sections.push({
      title: w.topLinks,
      rows: f.current.topLinks.map((l) => ({ name: `${l.label} ${l.address}`.trim(), value: n.format(l.count) })),
    });
  sections.push({ title: w.countries, rows: list(f.current.countries, country) });
  sections.push({ title: w.devices, rows: list(f.current.devices, device) });

  const heading = w.heading(kind, options.name);
  const text = [
    heading,
    range,
    '',
    ...totals.map((t) => `${t.name}: ${t.value} (${t.note})`),
    ...sections.flatMap((s) => [
      '',
      `${s.title}:`,
      ...(s.rows.length ? s.rows.map((r) => `- ${r.name}: ${r.value}`) : [`- ${w.none}`]),
    ]),
    '',
    `${w.open}: ${options.dashboardUrl}`,
    '',
    w.why(options.organizationName),
    `${w.unsubscribe}: ${options.unsubscribeUrl}`,
  ].join('\n');

  const table = (rows: { name: string; value: string }[]) =>
    rows.length
      ? `<table role="presentation" style="width:100%;border-collapse:collapse">${rows
          .map(
            (r) =>
              `<tr><td style="padding:4px 0;border-bottom:1px solid #eaeef2">${e(r.name)}</td><td style="padding:4px 0;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap">${e(r.value)}</td></tr>`,
          )
          .join('')}</table>`
      : `<p style="color:#6e7781">${e(w.none)}</p>`;
  const html =
    `<!doctype html><html lang="${lang}"><body style="margin:0;padding:24px;background:#f6f8fa;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans KR',sans-serif;color:#1f2328">` +
    `<div style="max-width:640px;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:24px">` +
    `<h1 style="font-size:20px;margin:0 0 4px">${e(heading)}</h1><p style="margin:0 0 16px;color:#6e7781">${e(range)}</p>` +
    `<table role="presentation" style="width:100%;margin:0 0 16px"><tr>${totals
      .map(
        (t) =>
          `<td style="padding:8px;vertical-align:top"><div style="color:#6e7781">${e(t.name)}</div><div style="font-size:26px;font-weight:600">${e(t.value)}</div><div style="color:#424a53;font-size:13px">${e(t.note)}</div></td>`,
      )
      .join('')}</tr></table>` +
    (options.chartPng
      ? `<img src="cid:${CHART_CID}" width="640" alt="${e(w.chartTitle(options.name))}" style="width:100%;height:auto;border:0">`
      : '') +
    sections.map((s) => `<h2 style="font-size:16px;margin:20px 0 6px">${e(s.title)}</h2>${table(s.rows)}`).join('') +
    `<p style="margin:24px 0"><a href="${e(options.dashboardUrl)}" style="display:inline-block;padding:10px 16px;border-radius:8px;background:#0969da;color:#fff;text-decoration:none;font-weight:600">${e(w.open)}</a></p>` +
    `<p style="color:#6e7781;font-size:13px">${e(w.why(options.organizationName))} <a href="${e(options.unsubscribeUrl)}">${e(w.unsubscribe)}</a></p>` +
    `</div></body></html>`;

  return {
    to: options.to,
    subject: w.subject(kind, options.name, range),
    text,
    html,
    ...(options.chartPng
      ? {
          inlineImages: [
            { cid: CHART_CID, filename: 'clicks.png', contentType: 'image/png', content: options.chartPng },
          ],
        }
      : {}),
    headers: {
      'List-Unsubscribe': `<${options.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
