package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

/** Term keys round-trip, are injective, and fold language tag case. */
class TermKeysTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static Value roundTrip(Value v) {
        byte[] key = TermKeys.encode(v);
        Value back = TermKeys.decode(key, VF, id -> {
            throw new AssertionError("no triple here");
        });
        assertEquals(v, back, () -> "round trip of " + v);
        assertArrayEquals(key, TermKeys.encode(back), () -> "re-encoding of " + v);
        return back;
    }

    @Test
    void everyKindOfTermRoundTrips() {
        String big = "x".repeat(100_000) + "\u00e9\ud83d\ude00";
        List<Value> values = List.of(
                VF.createIRI("http://example.org/a"), VF.createIRI("urn:x-\u65e5\u672c:\ud83d\ude00"),
                VF.createIRI("http://example.org/" + big), VF.createBNode("b0"), VF.createBNode("node \u00e9"),
                VF.createLiteral(""), VF.createLiteral("plain"), VF.createLiteral("nul\u0000inside\u0000"),
                VF.createLiteral("lone \ud800 surrogate \udfff"), VF.createLiteral(big),
                VF.createLiteral("01", XSD.INTEGER), VF.createLiteral("+1", XSD.INTEGER),
                VF.createLiteral("123456789012345678901234567890", XSD.INTEGER), VF.createLiteral("1.5e0", XSD.DOUBLE),
                VF.createLiteral("12:00:00", XSD.TIME), VF.createLiteral("not a date", XSD.DATE),
                VF.createLiteral("<b>x</b>", RDF.HTML), VF.createLiteral("POINT(1 2)",
                        VF.createIRI("http://www.opengis.net/ont/geosparql#wktLiteral")),
                VF.createLiteral("v", VF.createIRI("http://example.org/dt")), VF.createLiteral("", VF.createIRI("urn:dt")),
                VF.createLiteral("hello", "en"), VF.createLiteral("", "x-private-tag-long"), VF.createLiteral(big, "de"));
        for (Value v : values) {
            roundTrip(v);
        }
    }

    @Test
    void languageTagCaseIsFoldedToLowerCase() {
        Literal upper = VF.createLiteral("x", "EN");
        Literal mixed = VF.createLiteral("x", "en-US");
        assertArrayEquals(TermKeys.encode(VF.createLiteral("x", "en")), TermKeys.encode(upper));
        assertArrayEquals(TermKeys.encode(VF.createLiteral("x", "EN-us")), TermKeys.encode(mixed));
        Literal back = (Literal) roundTrip(mixed);
        assertEquals("en-us", back.getLanguage().orElseThrow());
        assertEquals(mixed, back);
        assertEquals("de-latn-ch", LanguageTags.normalize("de-Latn-CH"));
    }

    @Test
    void distinctTermsHaveDistinctKeys() {
        SplittableRandom rnd = new SplittableRandom(11);
        String[] pieces = { "", "a", "b", "ab", "\u0000", "\u0001", "http://x/", "en", "\u00e9", "\ud83d\ude00", "\ud800" };
        IRI[] datatypes = { XSD.STRING, XSD.INTEGER, XSD.DOUBLE, VF.createIRI("http://x/"), VF.createIRI("http://x/a"),
            VF.createIRI("http://x/ab"), XSD.NORMALIZEDSTRING };
        String[] tags = { "en", "EN", "e", "en-a", "ab" };
        Map<String, Value> byKey = new HashMap<>();
        List<Value> generated = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            String text = pieces[rnd.nextInt(pieces.length)] + pieces[rnd.nextInt(pieces.length)];
            Value v = switch (rnd.nextInt(5)) {
                case 0 -> VF.createIRI("http://x/" + text);
                case 1 -> VF.createBNode(text.isEmpty() ? "n" : text);
                case 2 -> VF.createLiteral(text, tags[rnd.nextInt(tags.length)]);
                default -> VF.createLiteral(text, datatypes[rnd.nextInt(datatypes.length)]);
            };
            generated.add(v);
        }
        for (Value v : generated) {
            Value previous = byKey.putIfAbsent(HexFormat.of().formatHex(TermKeys.encode(v)), v);
            if (previous != null) {
                assertEquals(previous, v, "two different terms share a key");
            }
        }
        // Conversely, equal terms (RDF4J equality, case-insensitive tags) must share a key.
        assertTrue(byKey.size() < generated.size());
        for (Value v : generated) {
            assertEquals(v, byKey.get(HexFormat.of().formatHex(TermKeys.encode(v))));
        }
    }

    @Test
    void fieldBoundariesAreUnambiguous() {
        Literal a = VF.createLiteral("ab", VF.createIRI("http://x/"));
        Literal b = VF.createLiteral("b", VF.createIRI("http://x/a"));
        assertTrue(!java.util.Arrays.equals(TermKeys.encode(a), TermKeys.encode(b)));
        Literal c = VF.createLiteral("nx", "e");
        Literal d = VF.createLiteral("x", "en");
        assertTrue(!java.util.Arrays.equals(TermKeys.encode(c), TermKeys.encode(d)));
        assertTrue(!java.util.Arrays.equals(TermKeys.encode(VF.createLiteral("x")),
                TermKeys.encode(VF.createLiteral("x", XSD.NORMALIZEDSTRING))));
        assertArrayEquals(TermKeys.encode(VF.createLiteral("x")), TermKeys.encode(VF.createLiteral("x", XSD.STRING)));
    }

    @Test
    void tripleTermsAreKeyedByComponentIds() {
        IRI s = VF.createIRI("http://x/s");
        IRI p = VF.createIRI("http://x/p");
        Literal o = VF.createLiteral("o", "en");
        Triple inner = VF.createTriple(s, p, o);
        Map<Long, Value> ids = Map.of(11L, s, 12L, p, 13L, o, 0xF000_0000_0000_0001L, inner);
        byte[] key = TermKeys.encodeTriple(11, 12, 13);
        assertEquals(TermKind.TRIPLE, TermKeys.kind(key));
        assertEquals(inner, TermKeys.decode(key, VF, ids::get));
        byte[] outerKey = TermKeys.encodeTriple(0xF000_0000_0000_0001L, 12, 11);
        assertEquals(VF.createTriple(inner, p, s), TermKeys.decode(outerKey, VF, ids::get));
        assertArrayEquals(new long[] { 0xF000_0000_0000_0001L, 12, 11 }, TermKeys.tripleIds(outerKey));
        assertThrows(IllegalArgumentException.class, () -> TermKeys.encode(inner));
    }

    @Test
    void kindsAndMalformedKeys() {
        assertEquals(TermKind.IRI, TermKeys.kind(TermKeys.encode(RDF.TYPE)));
        assertEquals(TermKind.BLANK_NODE, TermKeys.kind(TermKeys.encode(VF.createBNode("x"))));
        assertEquals(TermKind.LITERAL, TermKeys.kind(TermKeys.encode(VF.createLiteral("x", "en"))));
        assertEquals(TermKind.LITERAL, TermKeys.kind(TermKeys.encode(VF.createLiteral("01", XSD.INTEGER))));
        ValueFactory vf = VF;
        for (byte[] bad : new byte[][] { {}, { 0x00 }, { 0x08 }, { 0x05 }, { 0x04, (byte) 0x85 }, { 0x06, 0x05, 'a' },
            { 0x02, (byte) 0xC0 }, { 0x02, (byte) 0xFF }, { 0x07, 1, 2 } }) {
            assertThrows(IllegalArgumentException.class, () -> TermKeys.decode(bad, vf, id -> null));
        }
    }

    @Test
    void utf8IsStandardForWellFormedText() {
        String s = "a\u00e9\u65e5\ud83d\ude00\u0000";
        assertArrayEquals(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), Utf8.encode(s));
        assertEquals(s, Utf8.decode(Utf8.encode(s)));
        String lone = "\udc00x\ud800";
        assertEquals(lone, Utf8.decode(Utf8.encode(lone)));
    }
}
