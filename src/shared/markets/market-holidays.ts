/**
 * The market holidays Tickdesk ships, per exchange calendar, for 2026 and, where the exchange has
 * published them, 2027; and how a holiday changes a venue's day. The service says nothing about
 * holidays (spec: States and transitions, "not shown"), so these are ours, from the exchanges'
 * published calendars. market-timetables.ts names which calendar each venue keeps.
 */

/**
 * closed: no trading that day; halt: a US holiday on which CME Globex trades the morning and
 * halts at noon (the exchanges are closed); early: an early close (the venue's earlyDay hours).
 */
export interface Holiday {
  date: string
  name: string
  kind: 'closed' | 'halt' | 'early'
}

/**
 * How a holiday changes a day. exchange: the day is closed, or earlyDay on an early close.
 * globex: a closed day keeps only its evening session (the next trading day's start) and the
 * evening before it does not open; a halt day trades until haltAt, then the evening.
 * overnight: every holiday is a closed day in the globex way (grains, cotton).
 */
export type HolidayStyle = 'exchange' | 'globex' | 'overnight'

export const US_HOLIDAYS: readonly Holiday[] = [
  { date: '2026-01-01', name: "New Year's Day", kind: 'closed' },
  { date: '2026-01-19', name: 'Martin Luther King Jr. Day', kind: 'halt' },
  { date: '2026-02-16', name: "Washington's Birthday", kind: 'halt' },
  { date: '2026-04-03', name: 'Good Friday', kind: 'closed' },
  { date: '2026-05-25', name: 'Memorial Day', kind: 'halt' },
  { date: '2026-06-19', name: 'Juneteenth', kind: 'halt' },
  { date: '2026-07-03', name: 'Independence Day (observed)', kind: 'halt' },
  { date: '2026-09-07', name: 'Labor Day', kind: 'halt' },
  { date: '2026-11-26', name: 'Thanksgiving Day', kind: 'halt' },
  { date: '2026-11-27', name: 'Day after Thanksgiving', kind: 'early' },
  { date: '2026-12-24', name: 'Christmas Eve', kind: 'early' },
  { date: '2026-12-25', name: 'Christmas Day', kind: 'closed' },
  { date: '2027-01-01', name: "New Year's Day", kind: 'closed' },
  { date: '2027-01-18', name: 'Martin Luther King Jr. Day', kind: 'halt' },
  { date: '2027-02-15', name: "Washington's Birthday", kind: 'halt' },
  { date: '2027-03-26', name: 'Good Friday', kind: 'closed' },
  { date: '2027-05-31', name: 'Memorial Day', kind: 'halt' },
  { date: '2027-06-18', name: 'Juneteenth (observed)', kind: 'halt' },
  { date: '2027-07-05', name: 'Independence Day (observed)', kind: 'halt' },
  { date: '2027-09-06', name: 'Labor Day', kind: 'halt' },
  { date: '2027-11-25', name: 'Thanksgiving Day', kind: 'halt' },
  { date: '2027-11-26', name: 'Day after Thanksgiving', kind: 'early' },
  { date: '2027-12-24', name: 'Christmas Day (observed)', kind: 'closed' },
]

/** SSE/SZSE closures for 2026 (CSRC notice); make-up weekend workdays are not trading days. */
export const CN_HOLIDAYS: readonly Holiday[] = [
  ...closed(["New Year's Day", '2026-01-01', '2026-01-02']),
  ...closed([
    'Spring Festival',
    '2026-02-16',
    '2026-02-17',
    '2026-02-18',
    '2026-02-19',
    '2026-02-20',
    '2026-02-23',
  ]),
  ...closed(['Qingming Festival', '2026-04-06']),
  ...closed(['Labour Day', '2026-05-01', '2026-05-04', '2026-05-05']),
  ...closed(['Dragon Boat Festival', '2026-06-19']),
  ...closed(['Mid-Autumn Festival', '2026-09-25']),
  ...closed(['National Day', '2026-10-01', '2026-10-02', '2026-10-05', '2026-10-06', '2026-10-07']),
]

/** HKEX 2026: general holidays on weekdays; the eves of Lunar New Year, Christmas and New Year trade the morning only. */
export const HK_HOLIDAYS: readonly Holiday[] = [
  ...closed(["New Year's Day", '2026-01-01']),
  { date: '2026-02-16', name: "Lunar New Year's Eve", kind: 'early' },
  ...closed(['Lunar New Year', '2026-02-17', '2026-02-18', '2026-02-19']),
  ...closed(['Good Friday', '2026-04-03']),
  ...closed(['Easter Monday', '2026-04-06']),
  ...closed(['Day following Ching Ming Festival', '2026-04-07']),
  ...closed(['Labour Day', '2026-05-01']),
  ...closed(["Day following the Buddha's Birthday", '2026-05-25']),
  ...closed(['Tuen Ng Festival', '2026-06-19']),
  ...closed(['HKSAR Establishment Day', '2026-07-01']),
  ...closed(['National Day', '2026-10-01']),
  ...closed(['Day following Chung Yeung Festival', '2026-10-19']),
  { date: '2026-12-24', name: 'Christmas Eve', kind: 'early' },
  ...closed(['Christmas Day', '2026-12-25']),
  { date: '2026-12-31', name: "New Year's Eve", kind: 'early' },
  ...closed(["New Year's Day", '2027-01-01']),
]

/** Xetra and Eurex trading holidays. */
export const DE_HOLIDAYS: readonly Holiday[] = [
  ...closed(["New Year's Day", '2026-01-01']),
  ...closed(['Good Friday', '2026-04-03']),
  ...closed(['Easter Monday', '2026-04-06']),
  ...closed(['Labour Day', '2026-05-01']),
  ...closed(['Christmas Eve', '2026-12-24']),
  ...closed(['Christmas Day', '2026-12-25']),
  ...closed(["New Year's Eve", '2026-12-31']),
  ...closed(["New Year's Day", '2027-01-01']),
  ...closed(['Good Friday', '2027-03-26']),
  ...closed(['Easter Monday', '2027-03-29']),
  ...closed(['Christmas Eve', '2027-12-24']),
  ...closed(["New Year's Eve", '2027-12-31']),
]

function closed([name, ...dates]: [string, ...string[]]): Holiday[] {
  return dates.map((date) => ({ date, name, kind: 'closed' as const }))
}
