// The dashboard answer of the console API (/console/api/organizations/{orgId}/dashboard…).

export interface TopItem {
  name: string;
  count: number;
  percentage: number;
}

export interface DashboardLink {
  type: 'url' | 'campaign';
  id: number;
  label: string;
  address: string;
}

export interface DashboardData {
  meta: {
    dataRetentionDays: number;
    actualStartDate: string | null;
    actualEndDate: string | null;
    requestedStartDate: string;
    requestedEndDate: string;
    emptyReason: 'before_retention' | 'after_today' | null;
    timeZone: string;
  };
  total: number;
  previousTotal: number;
  change: number | null;
  uniqueVisitors: number;
  daily: { date: string; count: number; visitors: number }[];
  hourly: { hour: string; count: number }[];
  heatmap: { weekday: number; hour: number; count: number }[];
  countries: TopItem[];
  browsers: TopItem[];
  operatingSystems: TopItem[];
  referrers: TopItem[];
  trackers: TopItem[];
  deviceTypes: TopItem[];
  utm: { source: TopItem[]; medium: TopItem[]; campaign: TopItem[] };
  topLinks: (DashboardLink & { count: number; percentage: number })[];
  link: DashboardLink | null;
}
