package dev.basalt.store.lexicon;

import java.time.LocalDate;
import java.time.Month;
import java.time.Year;

/**
 * Strict parser and renderer of the canonical lexical forms of {@code xsd:dateTime} and
 * {@code xsd:date} that Basalt inlines. A form is accepted only if rendering its value gives the
 * same string, so the decoder reproduces the literal exactly:
 *
 * <ul>
 * <li>year: at least four digits, zero padded to four, no further leading zeros, at most nine
 * digits, an optional '-' (XSD 1.1 and ISO 8601: year 0000 is 1 BCE; "-0000" is not canonical);
 * <li>month, day, hour, minute, second: two digits each, valid in the proleptic Gregorian
 * calendar; hour 24 and second 60 are rejected (XSD has no leap seconds; "24:00:00" is another
 * spelling of the next midnight);
 * <li>fraction: '.' and one to three digits, last digit not '0' (milliseconds at most);
 * <li>timezone: none, "Z", or "+hh:mm"/"-hh:mm" in quarter hours within ±14:00 other than
 * "+00:00"/"-00:00" (those spell "Z" differently).
 * </ul>
 *
 * Everything else (valid or not) is left to the dictionary.
 *
 * <p>Stateless; any thread may call it (each parse uses its own cursor).
 */
final class TemporalSyntax {
    /** Offset in minutes meaning "no timezone". */
    static final int NO_ZONE = Integer.MIN_VALUE;

    /** Fields of a parsed form; millis and hour..second are 0 for a date. */
    static final class Fields {
        long epochDay;
        int millisOfDay;
        int offsetMinutes = NO_ZONE;
    }

    private TemporalSyntax() {
    }

    /** Parses a canonical dateTime or date ({@code withTime} false), or returns null. */
    static Fields parse(String s, boolean withTime) {
        Cursor c = new Cursor(s);
        boolean negative = c.accept('-');
        int yearStart = c.pos;
        long year = c.digits(4, 9);
        if (year < 0 || (c.pos - yearStart > 4 && s.charAt(yearStart) == '0') || (negative && year == 0)) {
            return null;
        }
        year = negative ? -year : year;
        int month = c.accept('-') ? (int) c.digits(2, 2) : -1;
        int day = c.accept('-') ? (int) c.digits(2, 2) : -1;
        if (month < 1 || month > 12 || day < 1 || day > Month.of(month).length(Year.isLeap(year))) {
            return null;
        }
        Fields f = new Fields();
        f.epochDay = LocalDate.of((int) year, month, day).toEpochDay();
        if (withTime) {
            int hour = c.accept('T') ? (int) c.digits(2, 2) : -1;
            int minute = c.accept(':') ? (int) c.digits(2, 2) : -1;
            int second = c.accept(':') ? (int) c.digits(2, 2) : -1;
            if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
                return null;
            }
            int millis = 0;
            if (c.accept('.')) {
                int start = c.pos;
                long fraction = c.digits(1, 3);
                int n = c.pos - start;
                if (fraction < 0 || s.charAt(c.pos - 1) == '0') {
                    return null;
                }
                millis = (int) (fraction * (n == 1 ? 100 : n == 2 ? 10 : 1));
            }
            f.millisOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millis;
        }
        if (c.accept('Z')) {
            f.offsetMinutes = 0;
        } else if (c.pos < s.length()) {
            char sign = s.charAt(c.pos++);
            int hh = (sign == '+' || sign == '-') ? (int) c.digits(2, 2) : -1;
            int mm = c.accept(':') ? (int) c.digits(2, 2) : -1;
            int offset = hh * 60 + mm;
            if (hh < 0 || mm < 0 || mm > 59 || offset == 0 || offset > 14 * 60 || offset % 15 != 0) {
                return null;
            }
            f.offsetMinutes = sign == '-' ? -offset : offset;
        }
        return c.pos == s.length() ? f : null;
    }

    static String render(long epochDay, int millisOfDay, int offsetMinutes, boolean withTime) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        StringBuilder sb = new StringBuilder(32);
        int year = date.getYear();
        if (year < 0) {
            sb.append('-');
        }
        pad(sb, Math.abs(year), 4).append('-');
        pad(sb, date.getMonthValue(), 2).append('-');
        pad(sb, date.getDayOfMonth(), 2);
        if (withTime) {
            int seconds = millisOfDay / 1000;
            sb.append('T');
            pad(sb, seconds / 3600, 2).append(':');
            pad(sb, seconds / 60 % 60, 2).append(':');
            pad(sb, seconds % 60, 2);
            int millis = millisOfDay % 1000;
            if (millis != 0) {
                sb.append('.');
                pad(sb, millis, 3);
                while (sb.charAt(sb.length() - 1) == '0') {
                    sb.setLength(sb.length() - 1);
                }
            }
        }
        if (offsetMinutes == 0) {
            sb.append('Z');
        } else if (offsetMinutes != NO_ZONE) {
            sb.append(offsetMinutes < 0 ? '-' : '+');
            pad(sb, Math.abs(offsetMinutes) / 60, 2).append(':');
            pad(sb, Math.abs(offsetMinutes) % 60, 2);
        }
        return sb.toString();
    }

    private static StringBuilder pad(StringBuilder sb, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }

    /** Position in the string being parsed. */
    private static final class Cursor {
        private final String s;
        int pos;

        Cursor(String s) {
            this.s = s;
        }

        boolean accept(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        /** Reads min..max ASCII digits; returns their value or -1 if fewer than min. */
        long digits(int min, int max) {
            int start = pos;
            long v = 0;
            while (pos < s.length() && pos - start < max && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                v = v * 10 + (s.charAt(pos++) - '0');
            }
            return pos - start >= min ? v : -1;
        }
    }
}
