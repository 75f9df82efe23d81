package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

/**
 * Randomized (fixed seeds) check that inline ids of one kind order as XSD orders the values, that
 * every sample round-trips, and that distinct terms get distinct ids. Sorting the samples by id and
 * checking that values never decrease between neighbours proves the order for all pairs.
 */
class InlineOrderTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int SAMPLES = 20_000;

    /** A sample: the literal and the value it is compared by. */
    private static final class Sample<V> {
        final Literal literal;
        final V value;
        long id;

        Sample(Literal literal, V value) {
            this.literal = literal;
            this.value = value;
        }
    }

    private static <V> void assertOrderPreserving(List<Sample<V>> samples, Comparator<V> valueOrder) {
        int kind = -1;
        for (Sample<V> s : samples) {
            s.id = InlineValues.encode(s.literal);
            assertNotEquals(TermIds.NULL, s.id, () -> "not inline: " + s.literal);
            assertEquals(s.literal, InlineValues.decode(s.id, VF));
            assertEquals(s.literal.getLabel(), InlineValues.label(s.id));
            if (kind >= 0) {
                assertEquals(kind, TermIds.kindCode(s.id), () -> "kind of " + s.literal);
            }
            kind = TermIds.kindCode(s.id);
        }
        List<Sample<V>> byId = new ArrayList<>(samples);
        byId.sort((a, b) -> Long.compareUnsigned(a.id, b.id));
        for (int i = 1; i < byId.size(); i++) {
            Sample<V> a = byId.get(i - 1);
            Sample<V> b = byId.get(i);
            if (a.id == b.id) {
                assertEquals(a.literal, b.literal, "two terms share an id");
            } else if (valueOrder.compare(a.value, b.value) > 0) {
                fail("id order " + a.literal + " < " + b.literal + " contradicts value order");
            } else {
                assertNotEquals(a.literal, b.literal);
            }
        }
    }

    @Test
    void integersAcrossAllIntegerDatatypes() {
        SplittableRandom rnd = new SplittableRandom(1);
        IRI[] types = { XSD.INTEGER, XSD.LONG, XSD.INT, XSD.SHORT, XSD.BYTE, XSD.NON_NEGATIVE_INTEGER,
            XSD.POSITIVE_INTEGER, XSD.NON_POSITIVE_INTEGER, XSD.NEGATIVE_INTEGER, XSD.UNSIGNED_LONG,
            XSD.UNSIGNED_INT, XSD.UNSIGNED_SHORT, XSD.UNSIGNED_BYTE };
        List<Sample<Long>> samples = new ArrayList<>();
        for (long v : new long[] { TermIds.INTEGER_MIN, TermIds.INTEGER_MAX, 0, 1, -1 }) {
            samples.add(new Sample<>(VF.createLiteral(Long.toString(v), XSD.INTEGER), v));
        }
        while (samples.size() < SAMPLES) {
            long v = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextLong(-300, 300);
                case 1 -> rnd.nextLong(-70_000, 70_000);
                default -> rnd.nextLong(TermIds.INTEGER_MIN, TermIds.INTEGER_MAX + 1);
            };
            IRI type = types[rnd.nextInt(types.length)];
            Literal literal = VF.createLiteral(Long.toString(v), type);
            if (InlineValues.encode(literal) != TermIds.NULL || !fitsType(v, type)) {
                samples.add(new Sample<>(literal, v));
            } else {
                fail("in-range " + literal + " was not inlined");
            }
        }
        samples.removeIf(s -> !fitsType(s.value, s.literal.getDatatype()));
        assertOrderPreserving(samples, Long::compare);
    }

    private static boolean fitsType(long v, IRI t) {
        if (t.equals(XSD.INT)) {
            return v == (int) v;
        } else if (t.equals(XSD.SHORT)) {
            return v == (short) v;
        } else if (t.equals(XSD.BYTE)) {
            return v == (byte) v;
        } else if (t.equals(XSD.NON_NEGATIVE_INTEGER) || t.equals(XSD.UNSIGNED_LONG)) {
            return v >= 0;
        } else if (t.equals(XSD.POSITIVE_INTEGER)) {
            return v > 0;
        } else if (t.equals(XSD.NON_POSITIVE_INTEGER)) {
            return v <= 0;
        } else if (t.equals(XSD.NEGATIVE_INTEGER)) {
            return v < 0;
        } else if (t.equals(XSD.UNSIGNED_INT)) {
            return v >= 0 && v <= 0xFFFF_FFFFL;
        } else if (t.equals(XSD.UNSIGNED_SHORT)) {
            return v >= 0 && v <= 0xFFFF;
        } else if (t.equals(XSD.UNSIGNED_BYTE)) {
            return v >= 0 && v <= 0xFF;
        }
        return true;
    }

    @Test
    void decimalsMatchRdf4jCanonicalFormAndOrder() {
        SplittableRandom rnd = new SplittableRandom(2);
        List<Sample<BigDecimal>> samples = new ArrayList<>();
        samples.add(new Sample<>(VF.createLiteral("0.0", XSD.DECIMAL), BigDecimal.ZERO));
        while (samples.size() < SAMPLES) {
            int digits = 1 + rnd.nextInt(15);
            long unscaled = rnd.nextLong(1, pow10(digits));
            BigDecimal v = BigDecimal.valueOf(rnd.nextBoolean() ? unscaled : -unscaled, rnd.nextInt(-20, 41));
            String canonical = org.eclipse.rdf4j.model.datatypes.XMLDatatypeUtil.normalizeDecimal(v.toPlainString());
            samples.add(new Sample<>(VF.createLiteral(canonical, XSD.DECIMAL), v));
        }
        assertOrderPreserving(samples, BigDecimal::compareTo);
    }

    @Test
    void doublesInlineExactlyWhenShortestFormHasAtMost14DigitsAndOrderAsDoubleCompare() {
        SplittableRandom rnd = new SplittableRandom(3);
        List<Sample<Double>> samples = new ArrayList<>();
        for (double d : new double[] { 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
            Double.MIN_VALUE, -Double.MIN_VALUE, 1e-310, 1e308, -1e308 }) {
            samples.add(new Sample<>(VF.createLiteral(canonicalDouble(d), XSD.DOUBLE), d));
        }
        int notInline = 0;
        while (samples.size() < SAMPLES / 4) {
            double d;
            if (rnd.nextInt(4) == 0) {
                d = Double.longBitsToDouble(rnd.nextLong());
            } else {
                String digits = Long.toString(rnd.nextLong(1, pow10(1 + rnd.nextInt(14))));
                int exponent = rnd.nextInt(3) == 0 ? rnd.nextInt(-340, 300) : rnd.nextInt(-20, 10);
                d = Double.parseDouble((rnd.nextBoolean() ? "-" : "") + digits + "E" + exponent);
            }
            String label = canonicalDouble(d);
            Literal literal = VF.createLiteral(label, XSD.DOUBLE);
            if (InlineValues.encode(literal) == TermIds.NULL) {
                assertTrue(significantDigits(label) > TermIds.DOUBLE_DIGITS, () -> "not inline: " + label);
                notInline++;
            } else {
                samples.add(new Sample<>(literal, d));
            }
        }
        assertTrue(notInline > 0);
        assertOrderPreserving(samples, Double::compare);
    }

    @Test
    void everyFloatInlinesAndOrdersAsFloatCompare() {
        SplittableRandom rnd = new SplittableRandom(4);
        List<Sample<Float>> samples = new ArrayList<>();
        for (float f : new float[] { 0f, -0f, Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL,
            Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY }) {
            samples.add(new Sample<>(VF.createLiteral(canonicalFloat(f), XSD.FLOAT), f));
        }
        while (samples.size() < SAMPLES / 4) {
            float f = Float.intBitsToFloat(rnd.nextInt());
            samples.add(new Sample<>(VF.createLiteral(canonicalFloat(f), XSD.FLOAT), f));
        }
        assertOrderPreserving(samples, Float::compare);
    }

    @Test
    void dateTimesOrderByInstantWithUnzonedAsUtc() {
        SplittableRandom rnd = new SplittableRandom(5);
        List<Sample<Long>> samples = new ArrayList<>();
        long limit = TermIds.TIME_BIAS - 86_400_000L;
        while (samples.size() < SAMPLES) {
            long instant = rnd.nextInt(3) == 0 ? rnd.nextLong(-limit, limit)
                    : rnd.nextLong(-5_000_000_000_000L, 5_000_000_000_000L);
            if (rnd.nextBoolean()) {
                instant -= Math.floorMod(instant, 1000);
            }
            int zone = rnd.nextInt(4);
            Integer offset = zone == 0 ? null : zone == 1 ? 0 : 15 * rnd.nextInt(-56, 57);
            long local = instant + (offset == null ? 0 : offset) * 60_000L;
            LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(local, 1000),
                    (int) Math.floorMod(local, 1000) * 1_000_000, ZoneOffset.UTC);
            String label = dateLabel(t.toLocalDate()) + String.format("T%02d:%02d:%02d", t.getHour(), t.getMinute(),
                    t.getSecond()) + fraction(t.getNano() / 1_000_000) + zoneLabel(offset);
            if (t.getYear() >= 1 && t.getYear() <= 9999 && (offset == null || offset == 0)) {
                assertTrue(org.eclipse.rdf4j.model.datatypes.XMLDatatypeUtil.isValidDateTime(label), label);
            }
            samples.add(new Sample<>(VF.createLiteral(label, XSD.DATETIME), instant));
        }
        assertOrderPreserving(samples, Long::compare);
    }

    @Test
    void datesOrderByTheStartOfTheDay() {
        SplittableRandom rnd = new SplittableRandom(6);
        List<Sample<Long>> samples = new ArrayList<>();
        while (samples.size() < SAMPLES) {
            long epochDay = rnd.nextBoolean() ? rnd.nextLong(-800_000, 800_000)
                    : rnd.nextLong(LocalDate.MIN.toEpochDay(), LocalDate.MAX.toEpochDay() + 1);
            int zone = rnd.nextInt(3);
            Integer offset = zone == 0 ? null : zone == 1 ? 0 : 15 * rnd.nextInt(-56, 57);
            String label = dateLabel(LocalDate.ofEpochDay(epochDay)) + zoneLabel(offset);
            long start = epochDay * 1440 - (offset == null ? 0 : offset);
            samples.add(new Sample<>(VF.createLiteral(label, XSD.DATE), start));
        }
        assertOrderPreserving(samples, Long::compare);
    }

    @Test
    void shortStringsOrderByCodePoints() {
        SplittableRandom rnd = new SplittableRandom(7);
        List<Sample<String>> samples = new ArrayList<>();
        while (samples.size() < SAMPLES) {
            String s = randomText(rnd, TermIds.STRING_MAX_BYTES);
            samples.add(new Sample<>(VF.createLiteral(s), s));
        }
        assertOrderPreserving(samples, InlineOrderTest::compareCodePoints);
    }

    @Test
    void languageStringsOrderByTagThenText() {
        SplittableRandom rnd = new SplittableRandom(8);
        String[] tags = { "en", "EN", "en-US", "de", "fr", "zh-Hans", "pt-BR", "ar" };
        List<Sample<String>> samples = new ArrayList<>();
        while (samples.size() < SAMPLES) {
            String tag = tags[rnd.nextInt(tags.length)];
            String text = randomText(rnd, TermIds.LANG_STRING_MAX_BYTES);
            samples.add(new Sample<>(VF.createLiteral(text, tag), LanguageTags.normalize(tag) + "\u0000" + text));
        }
        assertOrderPreserving(samples, InlineOrderTest::compareCodePoints);
    }

    private static String randomText(SplittableRandom rnd, int maxBytes) {
        int[] alphabet = { 0, 1, 'a', 'b', 'z', 0x7F, 0xE9, 0x7FF, 0x800, 0x65E5, 0xFFFD, 0x1F600, 0x10FFFF };
        StringBuilder sb = new StringBuilder();
        while (true) {
            int cp = alphabet[rnd.nextInt(alphabet.length)];
            String next = sb + new String(Character.toChars(cp));
            if (Utf8.encodedLength(next) > maxBytes || rnd.nextInt(6) == 0) {
                return sb.toString();
            }
            sb.append(Character.toChars(cp));
        }
    }

    static int compareCodePoints(String a, String b) {
        return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    static String canonicalDouble(double d) {
        String label = FloatingCodec.canonicalDouble(d);
        assertShortestRoundTrip(label, d, Double.isNaN(d) || Double.isInfinite(d) || d == 0, false);
        return label;
    }

    static String canonicalFloat(float f) {
        String label = FloatingCodec.canonicalFloat(f);
        assertShortestRoundTrip(label, f, Float.isNaN(f) || Float.isInfinite(f) || f == 0, true);
        return label;
    }

    /** Independent check: the label reads back as the value, and no shorter decimal would. */
    private static void assertShortestRoundTrip(String label, double value, boolean special, boolean isFloat) {
        if (special) {
            return;
        }
        assertEquals(value, isFloat ? Float.parseFloat(label) : Double.parseDouble(label), label);
        assertEquals(label, org.eclipse.rdf4j.model.datatypes.XMLDatatypeUtil.normalizeDouble(label), label);
        int n = significantDigits(label);
        if (n > 1) {
            BigDecimal exact = new BigDecimal(Math.abs(value));
            for (java.math.RoundingMode mode : new java.math.RoundingMode[] { java.math.RoundingMode.FLOOR,
                java.math.RoundingMode.CEILING }) {
                String shorter = exact.round(new java.math.MathContext(n - 1, mode)).toString();
                double back = isFloat ? Float.parseFloat(shorter) : Double.parseDouble(shorter);
                assertNotEquals(Math.abs(value), back, () -> label + " is not shortest: " + shorter);
            }
        }
    }

    private static int significantDigits(String scientific) {
        String mantissa = scientific.substring(scientific.startsWith("-") ? 1 : 0, scientific.indexOf('E'));
        String digits = mantissa.replace(".", "");
        return digits.endsWith("0") && digits.length() == 2 ? 1 : digits.length();
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static String dateLabel(LocalDate d) {
        int y = d.getYear();
        return (y < 0 ? "-" : "") + String.format("%04d-%02d-%02d", Math.abs(y), d.getMonthValue(), d.getDayOfMonth());
    }

    private static String fraction(int millis) {
        if (millis == 0) {
            return "";
        }
        String f = String.format(".%03d", millis);
        while (f.endsWith("0")) {
            f = f.substring(0, f.length() - 1);
        }
        return f;
    }

    private static String zoneLabel(Integer offset) {
        if (offset == null) {
            return "";
        } else if (offset == 0) {
            return "Z";
        }
        return String.format("%s%02d:%02d", offset < 0 ? "-" : "+", Math.abs(offset) / 60, Math.abs(offset) % 60);
    }
}
