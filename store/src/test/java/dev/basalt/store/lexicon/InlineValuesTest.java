package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

/** Which lexical forms are inlined, and that every inlined literal decodes to the identical term. */
class InlineValuesTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    static long assertInline(String label, IRI datatype) {
        Literal literal = VF.createLiteral(label, datatype);
        long id = InlineValues.encode(literal);
        assertNotEquals(TermIds.NULL, id, () -> "expected inline: \"" + label + "\"^^" + datatype);
        assertTrue(InlineValues.isInline(id));
        Literal back = InlineValues.decode(id, VF);
        assertEquals(label, back.getLabel(), "label of " + TermIds.describe(id));
        assertEquals(datatype, back.getDatatype());
        assertEquals(literal, back);
        assertEquals(label, InlineValues.label(id));
        assertEquals(datatype, InlineValues.datatype(id));
        return id;
    }

    static void assertNotInline(String label, IRI datatype) {
        long id = InlineValues.encode(VF.createLiteral(label, datatype));
        assertEquals(TermIds.NULL, id, () -> "expected dictionary: \"" + label + "\"^^" + datatype
                + " but got " + TermIds.describe(id));
    }

    @Test
    void integersInlineOnlyInCanonicalFormAndRange() {
        for (String s : List.of("0", "1", "-1", "42", "-36028797018963968", "36028797018963967", "1000000")) {
            assertInline(s, XSD.INTEGER);
        }
        for (String s : List.of("01", "+1", "-0", "00", " 1", "1 ", "1.0", "", "-", "1e3", "\u0663",
                "36028797018963968", "-36028797018963969", "9223372036854775807", "-9223372036854775808",
                "123456789012345678901234567890", "0x10")) {
            assertNotInline(s, XSD.INTEGER);
        }
        assertEquals(TermIds.INTEGER_MAX, InlineValues.integerValue(assertInline("36028797018963967", XSD.INTEGER)));
    }

    @Test
    void derivedIntegerTypesRespectTheirValueSpaces() {
        assertInline("127", XSD.BYTE);
        assertNotInline("128", XSD.BYTE);
        assertInline("-128", XSD.BYTE);
        assertInline("255", XSD.UNSIGNED_BYTE);
        assertNotInline("256", XSD.UNSIGNED_BYTE);
        assertNotInline("-1", XSD.UNSIGNED_BYTE);
        assertInline("65535", XSD.UNSIGNED_SHORT);
        assertInline("4294967295", XSD.UNSIGNED_INT);
        assertNotInline("4294967296", XSD.UNSIGNED_INT);
        assertInline("36028797018963967", XSD.UNSIGNED_LONG);
        assertInline("-2147483648", XSD.INT);
        assertNotInline("2147483648", XSD.INT);
        assertInline("-32768", XSD.SHORT);
        assertInline("1", XSD.POSITIVE_INTEGER);
        assertNotInline("0", XSD.POSITIVE_INTEGER);
        assertInline("0", XSD.NON_NEGATIVE_INTEGER);
        assertInline("0", XSD.NON_POSITIVE_INTEGER);
        assertNotInline("1", XSD.NON_POSITIVE_INTEGER);
        assertInline("-1", XSD.NEGATIVE_INTEGER);
        assertNotInline("0", XSD.NEGATIVE_INTEGER);
        assertInline("-36028797018963968", XSD.LONG);
    }

    @Test
    void sameValueDifferentIntegerDatatypesAreDistinctAndAdjacent() {
        long integer = assertInline("5", XSD.INTEGER);
        long asInt = assertInline("5", XSD.INT);
        long six = assertInline("6", XSD.BYTE);
        assertNotEquals(integer, asInt);
        assertTrue(Long.compareUnsigned(asInt, six) < 0);
        assertTrue(Long.compareUnsigned(InlineValues.firstIntegerId(5), integer) <= 0);
        assertTrue(Long.compareUnsigned(asInt, InlineValues.lastIntegerId(5)) <= 0);
        assertTrue(Long.compareUnsigned(InlineValues.lastIntegerId(5), InlineValues.firstIntegerId(6)) < 0);
    }

    @Test
    void decimalsInlineOnlyInCanonicalForm() {
        for (String s : List.of("0.0", "1.0", "-1.0", "0.5", "-0.5", "12.25", "100.0", "123456789012345.0",
                "0.000000000000001", "-98765.4321", "1" + "0".repeat(126) + ".0", "0." + "0".repeat(128) + "1")) {
            assertInline(s, XSD.DECIMAL);
        }
        for (String s : List.of("1", "1.", ".5", "1.50", "01.5", "+1.5", "-0.0", "00.0", "1.0e1", "1,0", "",
                "1234567890123456.0", "1" + "0".repeat(127) + ".0", "0." + "0".repeat(129) + "1", "NaN")) {
            assertNotInline(s, XSD.DECIMAL);
        }
    }

    @Test
    void doublesInlineOnlyInShortestCanonicalForm() {
        for (String s : List.of("1.0E0", "1.5E0", "-1.5E0", "1.0E-1", "3.14E0", "0.0E0", "-0.0E0", "INF", "-INF",
                "NaN", "1.0E308", "5.0E-324", "1.0E-310", "1.2345678901234E56", "1.0E22", "1.0E23")) {
            assertInline(s, XSD.DOUBLE);
        }
        for (String s : List.of("1.5e0", "1.50E0", "15.0E-1", "1.5E+0", "1.5E00", "1.5", "0.0", "0", "+INF", "inf",
                "nan", "Infinity", "1.0000000000000001E-1", "4.9E-324", "1.0E400", "1.0E-400", "-0.0E1",
                "1.7976931348623157E308", "2.2250738585072014E-308", "1.5E0 ", "0.1E1", "1.0d")) {
            assertNotInline(s, XSD.DOUBLE);
        }
    }

    @Test
    void negativeZeroAndZeroAreDistinctTerms() {
        long minus = assertInline("-0.0E0", XSD.DOUBLE);
        long plus = assertInline("0.0E0", XSD.DOUBLE);
        assertNotEquals(minus, plus);
        assertTrue(Long.compareUnsigned(minus, plus) < 0);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(InlineValues.doubleValue(minus)));
        long fMinus = assertInline("-0.0E0", XSD.FLOAT);
        long fPlus = assertInline("0.0E0", XSD.FLOAT);
        assertTrue(Long.compareUnsigned(fMinus, fPlus) < 0);
        assertTrue(Double.isNaN(InlineValues.doubleValue(assertInline("NaN", XSD.FLOAT))));
    }

    @Test
    void floatsInlineInShortestCanonicalForm() {
        for (String s : List.of("1.0E0", "1.0E-1", "3.4028235E38", "1.0E-45", "-INF", "INF", "NaN", "1.1754944E-38")) {
            assertInline(s, XSD.FLOAT);
        }
        for (String s : List.of("1.4E-45", "1.17549435E-38", "1.0E39", "1.0E-46", "0.1", "1.0f", "1.00000001E0", "1.0E0 ")) {
            assertNotInline(s, XSD.FLOAT);
        }
    }

    @Test
    void booleansOnlyTrueAndFalse() {
        assertEquals(1, Long.compareUnsigned(assertInline("true", XSD.BOOLEAN), assertInline("false", XSD.BOOLEAN)));
        assertTrue(InlineValues.booleanValue(assertInline("true", XSD.BOOLEAN)));
        for (String s : List.of("1", "0", "TRUE", "True", " true", "")) {
            assertNotInline(s, XSD.BOOLEAN);
        }
    }

    @Test
    void dateTimesInlineInCanonicalFormKeepingTheirTimezone() {
        for (String s : List.of("2020-01-01T00:00:00", "2020-01-01T00:00:00Z", "2020-01-01T00:00:00+02:00",
                "2020-01-01T00:00:00-05:00", "2020-06-30T12:34:56.789+05:30", "2020-06-30T12:34:56.5+05:45",
                "2020-06-30T12:34:56.12-14:00", "2020-06-30T23:59:59+14:00", "2000-02-29T00:00:00",
                "0000-01-01T00:00:00", "-0001-12-31T23:59:59Z", "10000-01-01T00:00:00", "1969-12-31T23:59:59.999",
                "-140000-01-01T00:00:00", "140000-01-01T00:00:00Z")) {
            assertInline(s, XSD.DATETIME);
        }
        for (String s : List.of("2020-01-01T00:00:00+00:00", "2020-01-01T00:00:00-00:00", "2020-01-01T24:00:00",
                "2016-12-31T23:59:60Z", "2020-01-01T00:00:00.50", "2020-01-01T00:00:00.1234", "2020-01-01T00:00:00.0",
                "2020-01-01T00:00:00.000", "-0000-01-01T00:00:00", "010000-01-01T00:00:00", "999-01-01T00:00:00",
                "2021-02-29T00:00:00", "1900-02-29T00:00:00", "2020-1-01T00:00:00", "2020-01-01t00:00:00",
                "2020-01-01T00:00:00z", "2020-01-01T00:00:00+05:20", "2020-01-01T00:00:00+14:15",
                "2020-01-01T00:00:00+15:00", "2020-01-01T00:00", "2020-01-01", "200000-01-01T00:00:00",
                "2020-13-01T00:00:00", "2020-01-32T00:00:00", "2020-01-01T00:60:00", "2020-01-01T00:00:00+0200",
                "+2020-01-01T00:00:00", " 2020-01-01T00:00:00")) {
            assertNotInline(s, XSD.DATETIME);
        }
    }

    @Test
    void sameInstantAtDifferentOffsetsIsTwoTermsWithAdjacentIds() {
        long utc = assertInline("2020-01-01T10:00:00Z", XSD.DATETIME);
        long plus2 = assertInline("2020-01-01T12:00:00+02:00", XSD.DATETIME);
        long local = assertInline("2020-01-01T10:00:00", XSD.DATETIME);
        assertNotEquals(utc, plus2);
        assertNotEquals(utc, local);
        long instant = InlineValues.dateTimeInstant(utc);
        assertEquals(instant, InlineValues.dateTimeInstant(plus2));
        for (long id : new long[] { utc, plus2, local }) {
            assertTrue(Long.compareUnsigned(InlineValues.firstDateTimeId(instant), id) <= 0);
            assertTrue(Long.compareUnsigned(id, InlineValues.lastDateTimeId(instant)) <= 0);
        }
        assertTrue(Long.compareUnsigned(InlineValues.lastDateTimeId(instant - 1), InlineValues.firstDateTimeId(instant)) < 0);
    }

    @Test
    void datesInlineInCanonicalForm() {
        for (String s : List.of("2020-01-01", "2020-01-01Z", "2020-01-01+02:00", "2020-01-01-14:00", "0000-01-01",
                "-0001-01-01", "-999999999-01-01", "999999999-12-31Z", "2000-02-29")) {
            assertInline(s, XSD.DATE);
        }
        for (String s : List.of("2020-01-01+00:00", "2021-02-29", "1000000000-01-01", "2020-01-01T00:00:00",
                "-0000-01-01", "20-01-01", "2020-01-01+01:10")) {
            assertNotInline(s, XSD.DATE);
        }
    }

    @Test
    void shortStringsIncludingNulAndNonAscii() {
        for (String s : List.of("", "a", "abcdefg", "\u0000", "a\u0000", "\u0000\u0000\u0000\u0000\u0000\u0000\u0000",
                "\u00e9t\u00e9", "\u65e5\u672c", "\ud83d\ude00", "\ud83d\ude00abc", "\ud800", "\udfff\ud800")) {
            long id = assertInline(s, XSD.STRING);
            assertEquals(TermKind.STRING, TermIds.kind(id));
            assertEquals(VF.createLiteral(s), InlineValues.decode(id, VF));
        }
        for (String s : List.of("abcdefgh", "\u65e5\u672c\u8a9e", "\ud83d\ude00\ud83d\ude00")) {
            assertNotInline(s, XSD.STRING);
        }
        assertNotEquals(InlineValues.encode(VF.createLiteral("a")), InlineValues.encode(VF.createLiteral("a\u0000")));
    }

    @Test
    void languageTaggedStringsNormalizeTheTag() {
        Literal upper = VF.createLiteral("chat", "FR");
        long id = InlineValues.encode(upper);
        assertEquals(TermKind.LANG_STRING, TermIds.kind(id));
        assertEquals(id, InlineValues.encode(VF.createLiteral("chat", "fr")));
        Literal back = InlineValues.decode(id, VF);
        assertEquals("fr", back.getLanguage().orElseThrow());
        assertEquals(upper, back);
        assertEquals(InlineValues.encode(VF.createLiteral("x", "en-US")), InlineValues.encode(VF.createLiteral("x", "EN-us")));
        assertEquals(TermIds.NULL, InlineValues.encode(VF.createLiteral("x", "tlh")));
        assertEquals(TermIds.NULL, InlineValues.encode(VF.createLiteral("abcdefg", "en")));
        assertNotEquals(TermIds.NULL, InlineValues.encode(VF.createLiteral("abcdef", "zh-hans")));
        assertEquals("de", InlineValues.language(InlineValues.encode(VF.createLiteral("", "de"))).orElseThrow());
    }

    @Test
    void otherDatatypesAndNonLiteralsAreNotInline() {
        assertNotInline("12:00:00", XSD.TIME);
        assertNotInline("P1D", XSD.DURATION);
        assertNotInline("1", VF.createIRI("http://example.org/myInt"));
        assertEquals(TermIds.NULL, InlineValues.encode(VF.createIRI("http://example.org/")));
        assertEquals(TermIds.NULL, InlineValues.encode(VF.createBNode("b")));
    }

    @Test
    void decodingRejectsIdsThatAreNotInline() {
        for (long id : new long[] { TermIds.NULL, TermIds.DEFAULT_GRAPH, TermIds.make(TermIds.KIND_IRI, 7),
                TermIds.make(TermIds.KIND_TRIPLE, 7), TermIds.make(0xD, 1) }) {
            assertThrows(IllegalArgumentException.class, () -> InlineValues.decode(id, VF));
        }
        assertThrows(IllegalArgumentException.class, () -> InlineValues.booleanValue(TermIds.make(TermIds.KIND_BOOLEAN, 2)));
        assertThrows(IllegalArgumentException.class, () -> InlineValues.label(TermIds.make(TermIds.KIND_INTEGER, 15)));
        assertThrows(IllegalArgumentException.class, () -> InlineValues.label(TermIds.make(TermIds.KIND_DATE_TIME, 127)));
        assertThrows(IllegalArgumentException.class, () -> InlineValues.compare(assertInline("1", XSD.INTEGER),
                assertInline("1.0", XSD.DECIMAL)));
    }
}
