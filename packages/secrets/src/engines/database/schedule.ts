import { CronExpressionParser } from 'cron-parser';
import { InvalidRequestError } from '../../logical/errors.js';

/**
 * Checks a `rotation_schedule`: standard cron (minute, hour, day of month, month, day of
 * week) or a predefined `@daily`-style name, as the established engine takes them.
 */
export function checkSchedule(expression: string): void {
  const fields = expression.trim().split(/\s+/);
  if (!expression.trim().startsWith('@') && fields.length !== 5) {
    throw new InvalidRequestError(
      `could not parse rotation_schedule: expected exactly 5 fields, found ${fields.length}`,
    );
  }
  try {
    CronExpressionParser.parse(expression, { currentDate: new Date(0), tz: 'UTC', strict: false });
  } catch (err) {
    throw new InvalidRequestError(`could not parse rotation_schedule: ${(err as Error).message}`);
  }
}

/** The first time the schedule names after `afterMs` (UTC). */
export function nextScheduled(expression: string, afterMs: number): number {
  return CronExpressionParser.parse(expression, { currentDate: new Date(afterMs), tz: 'UTC' })
    .next()
    .getTime();
}
