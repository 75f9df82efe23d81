package dev.basalt.sail.load;

import java.io.IOException;
import java.io.StringReader;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;

/**
 * Whether Rio's N-Triples parser, as the bulk loader configures it, takes a language tag and keeps
 * it as written: {@link NTriplesBytes} parses a tagged literal itself only then, so it accepts and
 * keeps exactly the tags Rio does. The answer comes from Rio parsing one line with the tag, once
 * per distinct tag (remembered for up to {@value #LIMIT} tags).
 *
 * <p>Thread-safe.
 */
final class LanguageTagCheck {
    private static final int LIMIT = 10_000;
    private static final ConcurrentHashMap<String, Boolean> KNOWN = new ConcurrentHashMap<>();

    private LanguageTagCheck() {
    }

    static boolean accepts(String tag) {
        Boolean known = KNOWN.get(tag);
        if (known != null) {
            return known;
        }
        boolean ok = rioKeeps(tag);
        if (KNOWN.size() < LIMIT) {
            KNOWN.put(tag, ok);
        }
        return ok;
    }

    private static boolean rioKeeps(String tag) {
        RDFParser parser = Rio.createParser(RDFFormat.NTRIPLES);
        Literal[] parsed = new Literal[1];
        parser.setRDFHandler(new AbstractRDFHandler() {
            @Override
            public void handleStatement(Statement st) {
                parsed[0] = (Literal) st.getObject();
            }
        });
        try {
            parser.parse(new StringReader("<http://example.org/s> <http://example.org/p> \"x\"@" + tag + " .\n"),
                    "http://example.org/");
        } catch (IOException | RuntimeException e) { // RDFParseException among them
            return false;
        }
        return parsed[0] != null && parsed[0].getLanguage().equals(Optional.of(tag));
    }
}
