package dev.basalt.sail.http;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;

/**
 * A request whose body the SPARQL fast path has read as text (an {@code application/sparql-query} POST,
 * {@link SparqlFastPath}), and which RDF4J Server can read again, as characters or as bytes in the request's
 * character encoding (ISO-8859-1 when it names none, as the servlet container reads it), when the fast path passes
 * the request on.
 *
 * <p>Thread rules: belongs to one request and the thread serving it.
 */
final class RereadableRequest extends HttpServletRequestWrapper {
    private final String body;

    private RereadableRequest(HttpServletRequest request, String body) {
        super(request);
        this.body = body;
    }

    /** Reads {@code request}'s whole body through its reader. */
    static RereadableRequest of(HttpServletRequest request) throws IOException {
        StringBuilder body = new StringBuilder();
        BufferedReader reader = request.getReader();
        char[] chunk = new char[8192];
        for (int n; (n = reader.read(chunk)) >= 0;) {
            body.append(chunk, 0, n);
        }
        return new RereadableRequest(request, body.toString());
    }

    /** The body as read. */
    String body() {
        return body;
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new StringReader(body));
    }

    @Override
    public ServletInputStream getInputStream() {
        String encoding = getCharacterEncoding();
        Charset charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
        ByteArrayInputStream bytes = new ByteArrayInputStream(body.getBytes(charset));
        return new ServletInputStream() {
            @Override
            public int read() {
                return bytes.read();
            }

            @Override
            public boolean isFinished() {
                return bytes.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the body was read already; no asynchronous reads");
            }
        };
    }
}
