package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.eclipse.rdf4j.rio.RDFParseException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conformance cases written from the grammar of RDF 1.1 N-Triples and N-Quads (the W3C test suite
 * is not available as a Maven artifact here), for the chunk parse the bulk loader does: the byte
 * parser, and Rio where it leaves the chunk. Every valid document gives the statements and term
 * encodings Rio gives; every invalid one is left to Rio, which rejects it. {@code |} separates
 * lines in the cases below.
 */
class NTriplesConformanceTest {
    private static String text(String c) {
        return c.replace("|", "\n") + "\n";
    }

    private static void assertValid(String doc, boolean quads) throws Exception {
        String text = text(doc);
        LoadValues values = new LoadValues("genid-c-");
        TermBatch expected = NTriplesBytesTestSupport.rio(text, quads, values, null);
        TermBatch actual = NTriplesBytesTestSupport.bytes(text, quads, values, null);
        if (actual == null) {
            actual = NTriplesBytesTestSupport.rio(text, quads, values, null); // left to Rio, as the loader does
        }
        NTriplesBytesTestSupport.assertSameEncodings(expected, actual, text);
    }

    private static void assertInvalid(String doc, boolean quads) {
        String text = text(doc);
        LoadValues values = new LoadValues("genid-c-");
        assertNull(NTriplesBytesTestSupport.bytes(text, quads, values, null), text);
        assertThrows(RDFParseException.class, () -> NTriplesBytesTestSupport.rio(text, quads, values, null), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "# only a comment",
        "   |\t|",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o>.",
        "<http://a.example/s><http://a.example/p><http://a.example/o>.",
        "<http://a.example/s>\t<http://a.example/p>\t<http://a.example/o>\t.\t",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> . # comment",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .#comment",
        "_:s <http://a.example/p> _:o .",
        "_:0 <http://a.example/p> _:1 .",
        "_:a.b.c <http://a.example/p> _:d-e_f .",
        "_:s <http://a.example/p> _:o.",
        "<http://a.example/s> <http://a.example/p> \"\" .",
        "<http://a.example/s> <http://a.example/p> \"x\" .",
        "<http://a.example/s> <http://a.example/p> \"\\t\\b\\n\\r\\f\\\"\\'\\\\\" .",
        "<http://a.example/s> <http://a.example/p> \"\\u0041\\U0001F600\" .",
        "<http://a.example/s> <http://a.example/p> \"ü ñ 日本 😀\" .",
        "<http://a.example/s> <http://a.example/p> \"chat\"@fr .",
        "<http://a.example/s> <http://a.example/p> \"chat\"@fr-BE .",
        "<http://a.example/s> <http://a.example/p> \"chat\"@FR.",
        "<http://a.example/s> <http://a.example/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .",
        "<http://a.example/s> <http://a.example/p> \"x\"^^<http://www.w3.org/2001/XMLSchema#string> .",
        "<http://a.example/s> <http://a.example/p> \"x\"^^<http://a.example/dt>.",
        "<http://a.example/\\u00E9> <http://a.example/p> <http://a.example/\\U0001F600> .",
        "<http://a.example/ä?q=1#f> <http://a.example/p> <urn:x:y> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .|<http://a.example/s> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .\r<http://a.example/s> <http://a.example/p> \"x\" .\r",
    })
    void validNTriples(String doc) throws Exception {
        assertValid(doc, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> <http://a.example/g> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> _:g .",
        "_:s <http://a.example/p> \"x\"@en <http://a.example/g> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> \"1\"^^<http://a.example/dt> <http://a.example/g>.",
    })
    void validNQuads(String doc) throws Exception {
        assertValid(doc, true);
    }

    /** Invalid by the grammar, and one valid case Rio 5.0.3 rejects (a non-ASCII blank node label): rejected as Rio does. */
    @ParameterizedTest
    @ValueSource(strings = {
        "_:résumé <http://a.example/p> _:o .",
        "<s> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> <o> .",
        "<http://a.example/ s> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/\\n> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/\\u00ZZ> <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> \"\\x\" .",
        "<http://a.example/s> <http://a.example/p> \"\\u12\" .",
        "<http://a.example/s> <http://a.example/p> \"x\"@ .",
        "<http://a.example/s> <http://a.example/p> \"x\"^^\"y\" .",
        "\"x\" <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> \"p\" <http://a.example/o> .",
        "<http://a.example/s> _:p <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o>",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> <http://a.example/g> .",
        "<http://a.example/s> <http://a.example/p> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> . <http://a.example/s> <http://a.example/p> <http://a.example/o> .",
        "_: <http://a.example/p> <http://a.example/o> .",
        "_:-a <http://a.example/p> <http://a.example/o> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> ,",
        "@prefix ex: <http://a.example/> .",
    })
    void invalidNTriples(String doc) {
        assertInvalid(doc, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> \"g\" .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> <g> .",
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> <http://a.example/g> <http://a.example/h> .",
    })
    void invalidNQuads(String doc) {
        assertInvalid(doc, true);
    }

    @ParameterizedTest
    @ValueSource(strings = { "en", "EN", "en-US", "de-CH-1996", "x-private", "zh-Hans-CN" })
    void languageTagsRioKeepsAreTakenAsWritten(String tag) {
        assertEquals(true, LanguageTagCheck.accepts(tag), tag);
    }
}
