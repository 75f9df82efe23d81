package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The wording and column of each fault {@link NTriplesLineCheck} names, and the lines it takes. */
class NTriplesLineCheckTest {
    @ParameterizedTest
    @ValueSource(strings = { "", "   ", "# a comment", "<http://e/s> <http://e/p> <http://e/o> .",
            "_:b1 <http://e/p> \"x\"@en-GB . # comment", "<http://e/s> <http://e/p> \"1\"^^<http://e/t>.",
            "<http://e/s>\t<http://e/p>\t\"a\\tb\\u00e9\\U0001F600\" .", "_:a.b <http://e/p> _:c.d .",
            "<http://e/s> <http://e/p> \"caf\u00e9 \u20ac \uD83D\uDE00\" ." })
    void takesGoodLines(String line) {
        assertNull(check(line, false, false));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            foo bar baz .                                 | 1  | expected a subject (an IRI in <...> or a blank node _:label), found 'f'
            "s" <http://e/p> <http://e/o> .               | 1  | expected a subject (an IRI in <...> or a blank node _:label), found '"'
            <http://e/s> _:p <http://e/o> .               | 14 | expected a predicate (an IRI in <...>), found '_'
            <http://e/s> <http://e/p> .                   | 27 | expected an object (an IRI in <...>, a blank node _:label or a literal in "..."), found '.'
            <http://e/s> <http://e/p> <http://e/o>        | 39 | expected '.' at the end of the statement, found the end of the line
            <http://e/s> <http://e/p> <http://e/o> <http://e/g> . | 40 | expected '.' at the end of the statement, found '<'
            <http://e/s> <http://e/p> <http://e/o> . x    | 42 | expected the end of the line after the statement's '.' (one statement per line), found 'x'
            <http://e/s> <http://e/p> "x" junk .          | 31 | expected '.' at the end of the statement, found 'j'
            <http://e/s> <http://e/p> "x"^<http://e/t> .  | 30 | expected '^^' and a datatype IRI after the literal, found '^'
            <http://e/s> <http://e/p> "x"^^"t" .          | 32 | expected a datatype IRI in <...> after '^^', found '"'
            <http://e/s> <http://e/p> "x"@en- .           | 30 | bad language tag '@en-': expected '@', letters, then optionally '-' and letters or digits (such as @en or @en-GB)
            <http://e/s> <http://e/p> "x"@en_GB .         | 30 | bad language tag '@en_GB': expected '@', letters, then optionally '-' and letters or digits (such as @en or @en-GB)
            <http://e/s> <http://e/p> "x\\u12G4" .        | 29 | bad escape: expected \\u and 4 hexadecimal digits, found '\\u12G4'
            <http://e/s> <http://e/p\\n> <http://e/o> .   | 25 | bad escape \\n in an IRI: expected \\uXXXX or \\UXXXXXXXX
            <http://e/s> <http://e/a b> <http://e/o> .    | 25 | a space is not allowed in an IRI (write it as a \\u escape or %-encode it)
            <http://e/s> <e/p> <http://e/o> .             | 14 | relative IRI <e/p>: expected an absolute IRI, with a scheme such as http:
            <http://e/s> <http://e/p> <http://e/o         | 27 | unterminated IRI: expected '>' to close the object IRI that starts here, found the end of the line
            _x <http://e/p> <http://e/o> .                | 1  | expected '_:' and a label for a blank node, found '_' followed by 'x'
            _: <http://e/p> <http://e/o> .                | 3  | expected a blank node label after '_:' (a letter, digit or '_'), found a space
            """)
    void namesTheFaultAndItsColumn(String line, int column, String text) {
        assertEquals(new NTriplesLineCheck.Problem(column, text), check(line.strip(), false, false));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            <http://e/s> <http://e/p> <http://e/o> "g" .  | 40 | expected a graph name (an IRI in <...> or a blank node _:label) or '.' at the end of the statement, found '"'
            <http://e/s> <http://e/p> <http://e/o> <http://e/g> <http://e/h> . | 53 | expected '.' at the end of the statement, found '<'
            <http://e/s> <http://e/p> <http://e/o> <http://e/g . | 40 | unterminated IRI: expected '>' to close the graph name IRI that starts here, found a space at column 51
            """)
    void namesFaultsOfQuads(String line, int column, String text) {
        assertEquals(new NTriplesLineCheck.Problem(column, text), check(line.strip(), true, false));
        assertNull(check("<http://e/s> <http://e/p> \"o\"@en <http://e/g> .", true, false));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            <http://e/s> <http://e/p> "é\u00FF" .  | 29 | invalid UTF-8 byte sequence 0xFF: the input must be UTF-8 (was it saved in another encoding?)
            <http://e/s> <http://e/p> "é\u00C3(" . | 29 | invalid UTF-8 byte sequence 0xC3: the input must be UTF-8 (was it saved in another encoding?)
            <http://e/é> <http://e/p\u0001> <http://e/o> . | 25 | the control character U+0001 is not allowed in an IRI (write it as a \\u escape or %-encode it)
            <http://e/é> <http://e/p> \u0001 .     | 27 | expected an object (an IRI in <...>, a blank node _:label or a literal in "..."), found the control character U+0001
            """)
    void namesBytesThatAreNotUtf8OrControlsWithColumnsInCharacters(String line, int column, String text) {
        // é is two bytes of UTF-8 and one column; U+00FF and U+00C3 above stand for the bytes 0xFF and 0xC3
        byte[] utf8 = line.strip().getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new String(utf8, StandardCharsets.ISO_8859_1).replace("\u00C3\u00BF", "\u00FF")
                .replace("\u00C3\u0083", "\u00C3").getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(new NTriplesLineCheck.Problem(column, text),
                NTriplesLineCheck.problem(bytes, 0, bytes.length, false, false));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            <http://e/s> <http://e/p> "cut | 27 | unterminated literal: expected '"' to close the literal that starts here, found the end of the input (the last line is cut off)
            <http://e/s> <http://e/p> <ht  | 27 | unterminated IRI: expected '>' to close the object IRI that starts here, found the end of the input (the last line is cut off)
            <http://e/s> <http://e/p>      | 26 | expected an object (an IRI in <...>, a blank node _:label or a literal in "..."), found the end of the input (the last line is cut off)
            """)
    void saysWhenTheInputEndsInTheLine(String line, int column, String text) {
        assertEquals(new NTriplesLineCheck.Problem(column, text), check(line.strip(), false, true));
    }

    private static NTriplesLineCheck.Problem check(String line, boolean quads, boolean endOfInput) {
        byte[] b = ("xx" + line + "\nyy").getBytes(StandardCharsets.UTF_8);
        return NTriplesLineCheck.problem(b, 2, b.length - 3, quads, endOfInput);
    }
}
