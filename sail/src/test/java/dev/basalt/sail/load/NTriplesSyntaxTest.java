package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lexical rules of {@link NTriplesSyntax} on their own: the ends it finds, the tokens it leaves to
 * Rio, UTF-8 well-formedness as {@link Utf8} judges it, and escape decoding.
 */
class NTriplesSyntaxTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = { "<http://e/s> ", "<urn:x> ", "<http://e/caf\u00e9\uD83D\uDE00> ", "<a+b-c.d:x> " })
    void findsTheEndOfAnAbsoluteIri(String text) {
        byte[] b = bytes(text);
        assertEquals(b.length - 2, NTriplesSyntax.iriEnd(b, 0, b.length));
    }

    @ParameterizedTest
    @ValueSource(strings = { "<e/p> ", "<:x> ", "<1a:x> ", "<http://e/a b> ", "<http://e/\\u0041> ", "<http://e/{x}> ",
            "<http://e/s", "http://e/s> ", "<> ", "<a_b:x> " })
    void leavesOtherIrisToRio(String text) {
        byte[] b = bytes(text);
        assertSame(NTriplesSyntax.UNSUPPORTED,
                assertThrows(NTriplesSyntax.Unsupported.class, () -> NTriplesSyntax.iriEnd(b, 0, b.length)));
    }

    @Test
    void blankNodeLabelsEndAtASpaceOrTab() {
        byte[] b = bytes("_:b1-x_2\t.");
        assertEquals(8, NTriplesSyntax.blankNodeEnd(b, 0, b.length));
        for (String other : new String[] { "_:a.b .", "_:-a .", "_:a", "_x .", "_:\u00e9 ." }) {
            byte[] o = bytes(other);
            assertThrows(NTriplesSyntax.Unsupported.class, () -> NTriplesSyntax.blankNodeEnd(o, 0, o.length));
        }
    }

    @Test
    void utf8SequencesAgreeWithUtf8() {
        byte[] b = new byte[4];
        for (int lead = 0x80; lead <= 0xFF; lead++) {
            for (int second = 0; second <= 0xFF; second++) {
                b[0] = (byte) lead;
                b[1] = (byte) second;
                b[2] = (byte) 0x80;
                b[3] = (byte) 0xBF;
                int expected = Utf8.sequenceLength(b, 0, b.length);
                int got;
                try {
                    got = NTriplesSyntax.utf8Sequence(b, 0, b.length);
                } catch (NTriplesSyntax.Unsupported e) {
                    got = -1;
                }
                assertEquals(expected, got, String.format("lead %02x, second %02x", lead, second));
            }
        }
        byte[] cut = { (byte) 0xE2, (byte) 0x82 };
        assertThrows(NTriplesSyntax.Unsupported.class, () -> NTriplesSyntax.utf8Sequence(cut, 0, cut.length));
    }

    @Test
    void decodesEscapes() {
        byte[] b = bytes("a\\tb\\\"c\\u00e9\\U0001F600\u20ac\\\\");
        StringBuilder text = new StringBuilder("left over");
        assertEquals("a\tb\"c\u00e9\uD83D\uDE00\u20ac\\", NTriplesSyntax.unescape(b, 0, b.length, b.length, text));
        for (String bad : new String[] { "\\x", "\\u12G4", "\\u12", "\\U00110000" }) {
            byte[] o = bytes(bad);
            assertThrows(NTriplesSyntax.Unsupported.class,
                    () -> NTriplesSyntax.unescape(o, 0, o.length, o.length, new StringBuilder()));
        }
    }
}
