package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.impl.ListBindingSet;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.junit.jupiter.api.Test;

/**
 * A body the writer holds whole when it ends is declared with its length before it goes to the stream, so the
 * container sends it in one write; a body that already went out in part, or a response already committed, is left
 * to the container's own framing.
 */
class DrainLastTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    /** A response that records the length declared; committed as told. */
    private static final class Recorded {
        Integer length;
        final HttpServletResponse response;

        Recorded(boolean committed) {
            response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] { HttpServletResponse.class }, (proxy, method, args) -> switch (method.getName()) {
                        case "isCommitted" -> committed;
                        case "setContentLength" -> {
                            length = (Integer) args[0];
                            yield null;
                        }
                        default -> throw new AssertionError("not expected: " + method.getName());
                    });
        }
    }

    private static byte[] select(int rows, Recorded recorded) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter writer = RowWriter.forFormat(TupleQueryResultFormat.SPARQL, out, EncodedOutput.newBuffer());
        writer.start(List.of("s"));
        for (int i = 0; i < rows; i++) {
            writer.row(new ListBindingSet(List.of("s"), VF.createIRI("http://example.org/resource/" + i)));
        }
        writer.end();
        writer.drainLast(recorded.response);
        return out.toByteArray();
    }

    @Test
    void aBodyHeldWholeIsDeclaredWithItsLength() throws IOException {
        Recorded recorded = new Recorded(false);
        byte[] body = select(100, recorded); // about 8.5 KB: past Jetty's aggregation size, within the buffer
        assertEquals(body.length, recorded.length);
        assertEquals(true, body.length > 8 * 1024, "the case that Jetty would send in chunks: " + body.length);
        String text = new String(body, StandardCharsets.UTF_8);
        assertEquals(true, text.endsWith("</results></sparql>"), "the whole document: " + text.substring(text.length() - 40));
    }

    @Test
    void aBodyThatWentOutInPartsIsNotDeclared() throws IOException {
        Recorded recorded = new Recorded(false);
        byte[] body = select(1_000, recorded); // past the buffer: it went out before the end
        assertNull(recorded.length);
        Recorded whole = new Recorded(false);
        assertArrayEquals(body, select(1_000, whole), "the same bytes either way");
    }

    @Test
    void aCommittedResponseIsNotDeclared() throws IOException {
        Recorded recorded = new Recorded(true);
        byte[] body = select(10, recorded);
        assertNull(recorded.length);
        assertEquals(true, body.length > 0);
    }
}
