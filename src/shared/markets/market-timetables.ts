import type { Market } from './market'
import {
  CN_HOLIDAYS,
  DE_HOLIDAYS,
  HK_HOLIDAYS,
  US_HOLIDAYS,
  type Holiday,
  type HolidayStyle,
} from './market-holidays'

/**
 * The trading hours Tickdesk ships, per venue, in the venue's own zone and wall clock. The
 * service says nothing about hours (spec: States and transitions, "not shown"), so this table is
 * ours: regular hours from the exchanges' published schedules, and which holiday calendar
 * (market-holidays.ts) each venue keeps. Venues outside the spec's markets (the foreign indices) ship
 * their hours only; `holidaysThrough: null` says so.
 */
export type SessionState = 'open' | 'break' | 'closed' | 'pre' | 'post'
export const SESSION_STATES: readonly SessionState[] = ['open', 'break', 'closed', 'pre', 'post']

/** [from 'HH:MM', to 'HH:MM' (or '24:00'), state]; a time no segment covers is closed. */
export type Segment = readonly [string, string, Exclude<SessionState, 'closed'>]
type Week = Partial<Record<0 | 1 | 2 | 3 | 4 | 5 | 6, readonly Segment[]>>

export interface Timetable {
  id: string
  venue: string
  timeZone: string
  /** The zone as traders write it in a time ("13:00 HKT"). */
  zone: string
  /** 'always' trades around the clock, every day (crypto). */
  week: Week | 'always'
  /** What its break is called: "lunch break", "daily halt". */
  breakName: string
  holidays: readonly Holiday[]
  holidayStyle: HolidayStyle
  haltAt?: string
  earlyDay?: readonly Segment[]
  /** The last year whose holidays are shipped; null: hours only. */
  holidaysThrough: number | null
}

const WEEKDAYS = [1, 2, 3, 4, 5] as const
function weekdays(segments: readonly Segment[]): Week {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, segments])) as Week
}
/** A Sunday-evening-to-Friday venue: Sun evening, Mon-Thu day + evening, Fri day. */
function sundayToFriday(day: readonly Segment[], evening: Segment): Week {
  const week = [...day, evening]
  // Friday ends the week: its last break (the halt before the evening) is simply the close.
  const friday = day.filter((s, i) => !(i === day.length - 1 && s[2] === 'break'))
  return { 0: [evening], 1: week, 2: week, 3: week, 4: week, 5: friday }
}

const NONE = { holidays: [], holidayStyle: 'exchange', holidaysThrough: null } as const

function hoursOnly(
  id: string,
  venue: string,
  timeZone: string,
  zone: string,
  day: readonly Segment[],
): Timetable {
  return { id, venue, timeZone, zone, week: weekdays(day), breakName: 'lunch break', ...NONE }
}

export const TIMETABLES = {
  always: {
    id: 'always',
    venue: 'Crypto (24/7)',
    timeZone: 'UTC',
    zone: 'UTC',
    week: 'always',
    breakName: 'break',
    ...NONE,
  },
  fx: {
    id: 'fx',
    venue: 'FX (Sunday 17:00 to Friday 17:00 New York)',
    timeZone: 'America/New_York',
    zone: 'ET',
    week: sundayToFriday([['00:00', '17:00', 'open']], ['17:00', '24:00', 'open']),
    breakName: 'break',
    ...NONE,
  },
  nyse: {
    id: 'nyse',
    venue: 'US equities (NYSE/Nasdaq)',
    timeZone: 'America/New_York',
    zone: 'ET',
    week: weekdays([
      ['04:00', '09:30', 'pre'],
      ['09:30', '16:00', 'open'],
      ['16:00', '20:00', 'post'],
    ]),
    breakName: 'break',
    holidays: US_HOLIDAYS,
    holidayStyle: 'exchange',
    earlyDay: [
      ['04:00', '09:30', 'pre'],
      ['09:30', '13:00', 'open'],
      ['13:00', '17:00', 'post'],
    ],
    holidaysThrough: 2027,
  },
  sse: {
    id: 'sse',
    venue: 'Shanghai/Shenzhen A-shares',
    timeZone: 'Asia/Shanghai',
    zone: 'BJT',
    week: weekdays([
      ['09:30', '11:30', 'open'],
      ['11:30', '13:00', 'break'],
      ['13:00', '15:00', 'open'],
    ]),
    breakName: 'lunch break',
    holidays: CN_HOLIDAYS,
    holidayStyle: 'exchange',
    holidaysThrough: 2026,
  },
  hkex: {
    id: 'hkex',
    venue: 'Hong Kong Exchange',
    timeZone: 'Asia/Hong_Kong',
    zone: 'HKT',
    week: weekdays([
      ['09:30', '12:00', 'open'],
      ['12:00', '13:00', 'break'],
      ['13:00', '16:00', 'open'],
    ]),
    breakName: 'lunch break',
    holidays: HK_HOLIDAYS,
    holidayStyle: 'exchange',
    earlyDay: [['09:30', '12:00', 'open']],
    holidaysThrough: 2026,
  },
  globex: {
    id: 'globex',
    venue: 'CME Globex (Sunday 17:00 to Friday 16:00 Chicago, daily halt 16:00-17:00)',
    timeZone: 'America/Chicago',
    zone: 'CT',
    week: sundayToFriday(
      [
        ['00:00', '16:00', 'open'],
        ['16:00', '17:00', 'break'],
      ],
      ['17:00', '24:00', 'open'],
    ),
    breakName: 'daily halt',
    holidays: US_HOLIDAYS,
    holidayStyle: 'globex',
    haltAt: '12:00',
    earlyDay: [['00:00', '12:15', 'open']],
    holidaysThrough: 2027,
  },
  eurex: {
    id: 'eurex',
    venue: 'Eurex',
    timeZone: 'Europe/Berlin',
    zone: 'CET',
    week: weekdays([['01:10', '22:00', 'open']]),
    breakName: 'break',
    holidays: DE_HOLIDAYS,
    holidayStyle: 'exchange',
    holidaysThrough: 2027,
  },
  cbotGrains: {
    id: 'cbot-grains',
    venue: 'CBOT grains',
    timeZone: 'America/Chicago',
    zone: 'CT',
    week: sundayToFriday(
      [
        ['00:00', '07:45', 'open'],
        ['07:45', '08:30', 'break'],
        ['08:30', '13:20', 'open'],
      ],
      ['19:00', '24:00', 'open'],
    ),
    breakName: 'break',
    holidays: US_HOLIDAYS,
    holidayStyle: 'overnight',
    earlyDay: [
      ['00:00', '07:45', 'open'],
      ['07:45', '08:30', 'break'],
      ['08:30', '12:05', 'open'],
    ],
    holidaysThrough: 2027,
  },
  cmeLivestock: {
    id: 'cme-livestock',
    venue: 'CME livestock',
    timeZone: 'America/Chicago',
    zone: 'CT',
    week: weekdays([['08:30', '13:05', 'open']]),
    breakName: 'break',
    holidays: US_HOLIDAYS,
    holidayStyle: 'exchange',
    earlyDay: [['08:30', '12:05', 'open']],
    holidaysThrough: 2027,
  },
  iceCoffee: iceSoft('ice-coffee', 'ICE coffee', '04:15', '13:30'),
  iceSugar: iceSoft('ice-sugar', 'ICE sugar', '03:30', '13:00'),
  iceCocoa: iceSoft('ice-cocoa', 'ICE cocoa', '04:45', '13:30'),
  iceOrangeJuice: iceSoft('ice-oj', 'ICE orange juice', '08:00', '14:00'),
  iceCotton: {
    id: 'ice-cotton',
    venue: 'ICE cotton',
    timeZone: 'America/New_York',
    zone: 'ET',
    week: sundayToFriday([['00:00', '14:20', 'open']], ['21:00', '24:00', 'open']),
    breakName: 'break',
    holidays: US_HOLIDAYS.filter((h) => h.kind !== 'early'),
    holidayStyle: 'overnight',
    holidaysThrough: 2027,
  },
  xetra: {
    ...hoursOnly('xetra', 'Xetra', 'Europe/Berlin', 'CET', [['09:00', '17:30', 'open']]),
    holidays: DE_HOLIDAYS,
    holidaysThrough: 2027,
  },
  lse: hoursOnly('lse', 'London Stock Exchange', 'Europe/London', 'UK', [
    ['08:00', '16:30', 'open'],
  ]),
  paris: hoursOnly('euronext-paris', 'Euronext Paris', 'Europe/Paris', 'CET', [
    ['09:00', '17:30', 'open'],
  ]),
  tokyo: hoursOnly('tse', 'Tokyo Stock Exchange', 'Asia/Tokyo', 'JST', [
    ['09:00', '11:30', 'open'],
    ['11:30', '12:30', 'break'],
    ['12:30', '15:30', 'open'],
  ]),
  korea: hoursOnly('krx', 'Korea Exchange', 'Asia/Seoul', 'KST', [['09:00', '15:30', 'open']]),
  sydney: hoursOnly('asx', 'ASX', 'Australia/Sydney', 'AET', [['10:00', '16:00', 'open']]),
  india: hoursOnly('nse', 'NSE/BSE India', 'Asia/Kolkata', 'IST', [['09:15', '15:30', 'open']]),
  taiwan: hoursOnly('twse', 'Taiwan Stock Exchange', 'Asia/Taipei', 'TWT', [
    ['09:00', '13:30', 'open'],
  ]),
  singapore: hoursOnly('sgx', 'Singapore Exchange', 'Asia/Singapore', 'SGT', [
    ['09:00', '17:00', 'open'],
  ]),
} satisfies Record<string, Timetable>

function iceSoft(id: string, venue: string, from: string, to: string): Timetable {
  return {
    id,
    venue,
    timeZone: 'America/New_York',
    zone: 'ET',
    week: weekdays([[from, to, 'open']]),
    breakName: 'break',
    holidays: US_HOLIDAYS.filter((h) => h.kind !== 'early'),
    holidayStyle: 'exchange',
    holidaysThrough: 2027,
  }
}

const T: Record<keyof typeof TIMETABLES, Timetable> = TIMETABLES

/** Symbols whose venue is not their market's usual one. */
const BY_SYMBOL: Partial<Record<Market, Record<string, Timetable>>> = {
  index: {
    HSI: T.hkex,
    HSCEI: T.hkex,
    HSTECH: T.hkex,
    SHCOMP: T.sse,
    SZCOMP: T.sse,
    CSI300: T.sse,
    N225: T.tokyo,
    DAX: T.xetra,
    SX5E: T.xetra,
    FTSE: T.lse,
    CAC40: T.paris,
    KOSPI: T.korea,
    ASX200: T.sydney,
    SENSEX: T.india,
    NIFTY: T.india,
    TWII: T.taiwan,
    STI: T.singapore,
    DXY: T.fx,
  },
  futures: { 'FDAX1!': T.eurex, 'FESX1!': T.eurex },
  agri: {
    'LE1!': T.cmeLivestock,
    'GF1!': T.cmeLivestock,
    'HE1!': T.cmeLivestock,
    'KC1!': T.iceCoffee,
    'SB1!': T.iceSugar,
    'CC1!': T.iceCocoa,
    'CT1!': T.iceCotton,
    'OJ1!': T.iceOrangeJuice,
  },
}

/**
 * Each market's usual venue. Spot metals and energy trade the Globex week (Sunday 18:00 to
 * Friday 17:00 New York, the same instants as Chicago's 17:00-16:00). An index the table does not
 * know is taken as a US index, the market's main use.
 */
const BY_MARKET: Record<Market, Timetable> = {
  crypto: T.always,
  'usdt-futures': T.always,
  futures: T.globex,
  fx: T.fx,
  commodity: T.globex,
  cn: T.sse,
  hk: T.hkex,
  index: T.nyse,
  agri: T.cbotGrains,
}

/** The timetable a market:SYMBOL trades by. */
export function timetableFor(market: Market, symbol?: string): Timetable {
  return (symbol === undefined ? undefined : BY_SYMBOL[market]?.[symbol]) ?? BY_MARKET[market]
}
