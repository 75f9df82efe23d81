package dev.basalt.store.lexicon;

/**
 * Inline {@code xsd:dateTime} and {@code xsd:date} in the canonical forms of
 * {@link TemporalSyntax}.
 *
 * <p>dateTime payload: {@code (instantMillis + TIME_BIAS) << ZONE_BITS | zoneCode}, where the
 * instant is the UTC time in milliseconds since 1970 (a form without timezone is placed as if it
 * were UTC) and the zone code is 0 for none, else offset in quarter hours + 57. Instants beyond
 * ±2^52 ms (about ±142,000 years) are not inlined. date payload: the same with the start of the
 * day in quarter hours since 1970 ({@code epochDay * 96 - offsetQuarters}).
 *
 * <p>Order: by instant, so a dateTime or date range FILTER is an id range. Values XSD calls equal
 * but are different terms (the same instant at different offsets) are adjacent and ordered by
 * zone code; XSD's indeterminate comparisons between zoned and unzoned values (within 14 hours)
 * resolve as if the unzoned value were UTC, which is what SPARQL engines commonly do too. A range
 * condition must therefore use {@link #firstIdAt} / {@link #lastIdAt} bounds and re-check zoned
 * against unzoned values near the bounds.
 *
 * <p>Stateless; any thread may call it.
 */
final class TemporalCodec {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long QUARTERS_PER_DAY = 96;
    private static final long ZONE_MASK = (1L << TermIds.ZONE_BITS) - 1;
    private static final int MAX_QUARTERS = 56;

    private TemporalCodec() {
    }

    static long encodeDateTime(String label) {
        TemporalSyntax.Fields f = TemporalSyntax.parse(label, true);
        if (f == null) {
            return TermIds.NULL;
        }
        int offset = f.offsetMinutes == TemporalSyntax.NO_ZONE ? 0 : f.offsetMinutes;
        long instant = f.epochDay * MILLIS_PER_DAY + f.millisOfDay - offset * 60_000L;
        long id = pack(TermIds.KIND_DATE_TIME, instant, f.offsetMinutes);
        // The parser accepts canonical forms only; this guard keeps a parser slip from ever
        // turning into a term that decodes differently.
        return id != TermIds.NULL && dateTimeLabel(id).equals(label) ? id : TermIds.NULL;
    }

    static String dateTimeLabel(long id) {
        long instant = unbias(id);
        int offset = zoneOffset(id);
        long local = instant + (offset == TemporalSyntax.NO_ZONE ? 0 : offset) * 60_000L;
        return TemporalSyntax.render(Math.floorDiv(local, MILLIS_PER_DAY),
                (int) Math.floorMod(local, MILLIS_PER_DAY), offset, true);
    }

    static long encodeDate(String label) {
        TemporalSyntax.Fields f = TemporalSyntax.parse(label, false);
        if (f == null) {
            return TermIds.NULL;
        }
        int quarters = f.offsetMinutes == TemporalSyntax.NO_ZONE ? 0 : f.offsetMinutes / 15;
        long id = pack(TermIds.KIND_DATE, f.epochDay * QUARTERS_PER_DAY - quarters, f.offsetMinutes);
        return id != TermIds.NULL && dateLabel(id).equals(label) ? id : TermIds.NULL;
    }

    static String dateLabel(long id) {
        int offset = zoneOffset(id);
        long local = unbias(id) + (offset == TemporalSyntax.NO_ZONE ? 0 : offset / 15);
        if (Math.floorMod(local, QUARTERS_PER_DAY) != 0) {
            throw new IllegalArgumentException("inline date does not start a day: " + TermIds.describe(id));
        }
        return TemporalSyntax.render(Math.floorDiv(local, QUARTERS_PER_DAY), 0, offset, false);
    }

    /** UTC milliseconds of a dateTime id, or quarter hours of a date id's start. */
    static long instant(long id) {
        return unbias(id);
    }

    /** Offset in minutes of a dateTime or date id, or {@link TemporalSyntax#NO_ZONE}. */
    static int zoneOffset(long id) {
        int code = (int) (id & ZONE_MASK);
        if (code == TermIds.ZONE_NONE) {
            return TemporalSyntax.NO_ZONE;
        }
        int quarters = code - TermIds.ZONE_BIAS;
        if (quarters < -MAX_QUARTERS || quarters > MAX_QUARTERS) {
            throw new IllegalArgumentException("no zone code " + code + " in " + TermIds.describe(id));
        }
        return quarters * 15;
    }

    /** Smallest id of the kind at this instant (UTC ms for dateTime, quarter hours for date). */
    static long firstIdAt(int kindCode, long instant) {
        return TermIds.make(kindCode, (instant + TermIds.TIME_BIAS) << TermIds.ZONE_BITS);
    }

    static long lastIdAt(int kindCode, long instant) {
        return firstIdAt(kindCode, instant) | ZONE_MASK;
    }

    private static long pack(int kindCode, long instant, int offsetMinutes) {
        long biased = instant + TermIds.TIME_BIAS;
        if (biased < 0 || biased >= TermIds.TIME_LIMIT) {
            return TermIds.NULL;
        }
        long zone = offsetMinutes == TemporalSyntax.NO_ZONE ? TermIds.ZONE_NONE
                : offsetMinutes / 15 + TermIds.ZONE_BIAS;
        return TermIds.make(kindCode, biased << TermIds.ZONE_BITS | zone);
    }

    private static long unbias(long id) {
        return (TermIds.payload(id) >>> TermIds.ZONE_BITS) - TermIds.TIME_BIAS;
    }
}
