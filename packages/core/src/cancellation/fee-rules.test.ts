import { describe, expect, it } from 'vitest'
import { isWorkingDay, proposedCancellationFee, publicHolidayOn } from './fee-rules.ts'

/** Noon in Johannesburg on a day. */
const on = (day: string) => new Date(`${day}T12:00:00+02:00`)

describe('South African public holidays', () => {
  // The Public Holidays Act's days for each year, with the Monday after each one that falls on a Sunday.
  it.each([
    [2025, ['01-01', '03-21', '04-18', '04-21', '04-27', '04-28', '05-01', '06-16', '08-09', '09-24', '12-16', '12-25', '12-26']],
    [2026, ['01-01', '03-21', '04-03', '04-06', '04-27', '05-01', '06-16', '08-09', '08-10', '09-24', '12-16', '12-25', '12-26']],
    [2027, ['01-01', '03-21', '03-22', '03-26', '03-29', '04-27', '05-01', '06-16', '08-09', '09-24', '12-16', '12-25', '12-26', '12-27']],
  ])('%i has exactly its public holidays', (year, days) => {
    const holidays: string[] = []
    for (let day = new Date(Date.UTC(year, 0, 1)); day.getUTCFullYear() === year; day = new Date(day.getTime() + 86_400_000)) {
      const iso = day.toISOString().slice(0, 10)
      if (publicHolidayOn(iso)) holidays.push(iso.slice(5))
    }
    expect(holidays).toEqual(days)
  })

  it.each([
    ['2026-08-10', false, 'Monday after National Women’s Day on a Sunday'],
    ['2027-03-22', false, 'Monday after Human Rights Day on a Sunday'],
    ['2025-04-28', false, 'Monday after Freedom Day on a Sunday'],
    ['2027-05-03', true, 'Monday after Workers’ Day on a Saturday: no holiday moves from a Saturday'],
    ['2025-06-14', false, 'a Saturday'],
    ['2025-06-17', true, 'the Tuesday after Youth Day'],
  ])('%s is a working day: %s (%s)', (day, working) => {
    expect(isWorkingDay(day)).toBe(working)
  })
})

describe('the proposed cancellation fee', () => {
  it.each([
    // Event Monday 30 June 2025; Youth Day (Monday 16 June) is not a working day, so the 50% fee starts on 9 June.
    ['2025-06-30', '2025-06-06', 0, 15],
    ['2025-06-30', '2025-06-07', 0, 15],
    ['2025-06-30', '2025-06-08', 0, 15],
    ['2025-06-30', '2025-06-09', 50, 14],
    ['2025-06-30', '2025-06-22', 50, 6],
    ['2025-06-30', '2025-06-23', 100, 5],
    ['2025-06-30', '2025-06-30', 100, 0],
    ['2025-06-30', '2025-07-01', 100, 0],
    // Event Wednesday 2 April 2025; Human Rights Day (Friday 21 March) moves the 50% day back to 12 March.
    ['2025-04-02', '2025-03-11', 0, 15],
    ['2025-04-02', '2025-03-12', 50, 14],
    // Event Monday 5 May 2025: Workers' Day, Freedom Day kept on Monday 28 April, Family Day and Good Friday.
    ['2025-05-05', '2025-04-08', 0, 15],
    ['2025-05-05', '2025-04-09', 50, 14],
    // Event Friday 3 October 2025; Heritage Day (Wednesday 24 September) moves it back to 12 September.
    ['2025-10-03', '2025-09-11', 0, 15],
    ['2025-10-03', '2025-09-12', 50, 14],
    // Event Monday 5 January 2026, across the Day of Reconciliation, Christmas, the Day of Goodwill and New Year.
    ['2026-01-05', '2025-12-09', 0, 15],
    ['2026-01-05', '2025-12-10', 50, 14],
    ['2026-01-05', '2025-12-29', 100, 4],
    // Event Friday 21 August 2026; National Women's Day on Sunday 9 August is kept on Monday 10 August.
    ['2026-08-21', '2026-07-30', 0, 15],
    ['2026-08-21', '2026-07-31', 50, 14],
    ['2026-08-21', '2026-08-13', 50, 6],
    ['2026-08-21', '2026-08-14', 100, 5],
    // Event Thursday 8 April 2027: Human Rights Day kept on Monday 22 March, Good Friday and Family Day.
    ['2027-04-08', '2027-03-15', 0, 15],
    ['2027-04-08', '2027-03-16', 50, 14],
  ] as const)('event on %s, cancelled on %s: %i%% (%i working days before)', (eventDay, cancelledOn, feePercent, workingDaysBefore) => {
    const fee = proposedCancellationFee(`${eventDay}T07:00:00Z`, on(cancelledOn))
    expect(fee.feePercent).toBe(feePercent)
    expect(fee.workingDaysBefore).toBe(workingDaysBefore)
    expect(fee.cancelledOn).toBe(cancelledOn)
    expect(fee.eventDay).toBe(eventDay)
  })

  it('says which days the fees start on and which holidays it skipped', () => {
    const fee = proposedCancellationFee('2025-06-30T07:00:00Z', on('2025-06-02'))
    expect(fee).toMatchObject({ feePercent: 0, halfFeeFrom: '2025-06-09', fullFeeFrom: '2025-06-23', calendarDaysBefore: 28 })
    expect(fee.holidaysSkipped).toEqual([{ date: '2025-06-16', name: 'Youth Day' }])
  })

  it('counts days in Johannesburg, not in UTC', () => {
    // 22:30 UTC on 8 June is already 9 June in Johannesburg, the first day of the 50% fee.
    expect(proposedCancellationFee('2025-06-30T07:00:00Z', new Date('2025-06-08T22:30:00Z')).feePercent).toBe(50)
    expect(proposedCancellationFee('2025-06-30T07:00:00Z', new Date('2025-06-08T21:30:00Z')).feePercent).toBe(0)
  })
})
