package dev.basalt.workbench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletOutputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;

/**
 * Gives RDF4J Server's answers to a client's mistakes a 4xx status where RDF4J Server 5.0.3 answers 500 and
 * nothing below the servlet layer can make it answer otherwise, so a client (and a monitoring system counting
 * 5xx) can tell its own error from the server's. The cases, each found by {@code RestFuzzTest}:
 * <ul>
 * <li>a query or update nested deeper than a request thread's stack (the parser or an algebra walk overflows
 * it): 400, naming the cause;</li>
 * <li>a request to a transaction id the server does not know ("transaction with id … not registered", e.g.
 * after a restart or a commit): 404;</li>
 * <li>a form body over the launcher's limit ({@link #MAX_FORM_BYTES}): 413.</li>
 * </ul>
 * Malformed uploads are not among them: a {@code basalt:BasaltRepository} connection turns a parser's failure
 * into an {@code RDFParseException}, which RDF4J Server answers with 400 itself, and keeps the store's own
 * failures apart. Every other 500 passes through unchanged. The cases are recognised by RDF4J's and Jetty's
 * messages, which this launcher pins; {@code RestFuzzTest} fails if an upgrade changes them. An answer a
 * handler already started streaming keeps its status. One instance serves all request threads; it keeps no
 * state of its own.
 */
public final class ClientErrorMapping implements Filter {
    /** The largest form body (a query or an update sent as a form) the server parses: 16 MiB. */
    static final int MAX_FORM_BYTES = 16 << 20;

    @Override
    public void init(FilterConfig config) {
        // nothing to set up
    }

    @Override
    public void destroy() {
        // nothing to release
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(response instanceof HttpServletResponse http)) {
            chain.doFilter(request, response);
            return;
        }
        Capture capture = new Capture(http);
        try {
            chain.doFilter(request, capture);
        } catch (ServletException | RuntimeException | StackOverflowError e) {
            if (!(rootCause(e) instanceof StackOverflowError) || http.isCommitted()) {
                throw e;
            }
            http.reset();
            answer(http, HttpServletResponse.SC_BAD_REQUEST, TOO_DEEP);
            return;
        }
        capture.finish();
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** A status other than 500 for a 500 answer, and the message to send with it (null: keep RDF4J's). */
    record Mapped(int status, String message) {
    }

    private static final String TOO_DEEP = "MALFORMED QUERY: nested too deeply for the server to parse or evaluate "
            + "(the request thread's stack overflowed); flatten or split the query or update";

    /**
     * The status for a 500 answer with this body, or 500 when it is not a client's mistake this filter knows.
     */
    static Mapped classify(String body) {
        if (body.contains("java.lang.StackOverflowError")) {
            return new Mapped(HttpServletResponse.SC_BAD_REQUEST, TOO_DEEP);
        }
        if (body.contains("transaction with id") && body.contains("not registered")) {
            return new Mapped(HttpServletResponse.SC_NOT_FOUND, null);
        }
        if (body.contains("Unable to parse form content") || body.contains("Form is larger than max length")
                || body.contains("Form too large")) {
            return new Mapped(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "Request body over the server's form "
                    + "limit of " + (MAX_FORM_BYTES >> 20) + " MiB: " + body);
        }
        return new Mapped(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, null);
    }

    private static void answer(HttpServletResponse http, int status, String message) throws IOException {
        http.setStatus(status);
        http.setContentType("text/plain;charset=UTF-8");
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        http.setContentLength(bytes.length);
        http.getOutputStream().write(bytes);
    }

    /**
     * Passes everything through until the handler sets status 500; from then on the body is held back so that
     * {@link #finish()} can decide the final status from it.
     */
    private static final class Capture extends HttpServletResponseWrapper {
        private final HttpServletResponse http;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private boolean holding;
        private String errorMessage;
        private ServletOutputStream stream;
        private PrintWriter writer;

        Capture(HttpServletResponse http) {
            super(http);
            this.http = http;
        }

        @Override
        public void setStatus(int sc) {
            if (sc == SC_INTERNAL_SERVER_ERROR && !http.isCommitted()) {
                holding = true;
            } else {
                super.setStatus(sc);
            }
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            if (sc == SC_INTERNAL_SERVER_ERROR && !http.isCommitted()) {
                holding = true;
                errorMessage = msg == null ? "" : msg;
            } else {
                super.sendError(sc, msg);
            }
        }

        @Override
        public void sendError(int sc) throws IOException {
            sendError(sc, null);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (stream == null) {
                ServletOutputStream real = http.getOutputStream();
                stream = new ServletOutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        if (holding) {
                            held.write(b);
                        } else {
                            real.write(b);
                        }
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        if (holding) {
                            held.write(b, off, len);
                        } else {
                            real.write(b, off, len);
                        }
                    }

                    @Override
                    public void flush() throws IOException {
                        if (!holding) {
                            real.flush();
                        }
                    }

                    @Override
                    public boolean isReady() {
                        return real.isReady();
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        real.setWriteListener(listener);
                    }
                };
            }
            return stream;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (writer == null) {
                String charset = getCharacterEncoding() == null ? "UTF-8" : getCharacterEncoding();
                writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), charset));
            }
            return writer;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!holding) {
                super.flushBuffer();
            }
        }

        @Override
        public void setContentLength(int len) {
            if (!holding) {
                super.setContentLength(len);
            }
        }

        @Override
        public void setContentLengthLong(long len) {
            if (!holding) {
                super.setContentLengthLong(len);
            }
        }

        /** Sends what was held back: under the status {@link #classify} gives it. */
        void finish() throws IOException {
            if (writer != null) {
                writer.flush();
            }
            if (!holding) {
                return;
            }
            String body = errorMessage != null ? errorMessage : held.toString(StandardCharsets.UTF_8);
            Mapped mapped = classify(body);
            String message = mapped.message() != null ? mapped.message() : body;
            if (errorMessage != null) {
                http.sendError(mapped.status(), message);
                return;
            }
            http.setStatus(mapped.status());
            byte[] bytes = mapped.message() != null ? message.getBytes(StandardCharsets.UTF_8) : held.toByteArray();
            if (mapped.message() != null) {
                http.setContentType("text/plain;charset=UTF-8");
            }
            http.setContentLength(bytes.length);
            http.getOutputStream().write(bytes);
        }
    }
}
