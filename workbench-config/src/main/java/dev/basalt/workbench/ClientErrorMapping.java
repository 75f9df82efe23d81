package dev.basalt.workbench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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

import dev.basalt.sail.errors.FailureStatus;

/**
 * Gives RDF4J Server's answers to a client's mistakes a 4xx status where RDF4J Server 5.0.3 answers 500 and
 * nothing below the servlet layer can make it answer otherwise, so a client (and a monitoring system counting
 * 5xx) can tell its own error from the server's. Which answers change, and to what, is decided by the sail's
 * {@link FailureStatus} ({@link FailureStatus#ofUncaught} for an exception that escapes RDF4J Server's
 * handlers, {@link FailureStatus#ofServerError} for a 500 answer's body: a query nested too deeply, an unknown
 * transaction id, a form body over {@link #MAX_FORM_BYTES}); this filter only holds a 500 answer back and sends
 * it again under the status and message that class gives. Every other 500 passes through unchanged; an answer a
 * handler already started streaming keeps its status.
 *
 * <p>Basalt's jars are on the webapp's class path, never on the launcher's, so this filter (a launcher class)
 * reaches {@code FailureStatus} through the webapp's class loader, by name, when it is initialised; a webapp
 * without Basalt's sail keeps RDF4J's statuses. One instance serves all request threads; its handles are set
 * once in {@link #init} and it keeps no other state.
 */
public final class ClientErrorMapping implements Filter {
    /** The largest form body (a query or an update sent as a form) the server parses: 16 MiB. */
    static final int MAX_FORM_BYTES = FailureStatus.MAX_FORM_BYTES;
    /** The most of an unread request body read and dropped before an error answer ({@link #discardUnreadBody}). */
    static final long MAX_DISCARDED_BYTES = 2L * MAX_FORM_BYTES;
    private static final String FAILURE_STATUS = "dev.basalt.sail.errors.FailureStatus";

    private volatile MethodHandle ofUncaught;
    private volatile MethodHandle ofServerError;
    private volatile MethodHandle status;
    private volatile MethodHandle message;
    private volatile MethodHandle contentType;

    /** {@code FailureStatus.Answer} seen from the launcher's class loader. */
    record Mapped(int status, String message, String contentType) {
    }

    @Override
    public void init(FilterConfig config) {
        ClassLoader webapp = config.getServletContext().getClassLoader();
        try {
            Class<?> statuses = Class.forName(FAILURE_STATUS, true, webapp);
            Class<?> answer = Class.forName(FAILURE_STATUS + "$Answer", true, webapp);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            ofUncaught = lookup.findStatic(statuses, "ofUncaught", MethodType.methodType(answer, Throwable.class));
            ofServerError = lookup.findStatic(statuses, "ofServerError", MethodType.methodType(answer, String.class));
            status = lookup.findVirtual(answer, "status", MethodType.methodType(int.class));
            message = lookup.findVirtual(answer, "message", MethodType.methodType(String.class));
            contentType = lookup.findVirtual(answer, "contentType", MethodType.methodType(String.class));
        } catch (ReflectiveOperationException | LinkageError e) {
            config.getServletContext().log("ClientErrorMapping off: the webapp has no Basalt sail (" + e + ")");
            ofUncaught = null;
            ofServerError = null;
        }
    }

    @Override
    public void destroy() {
        // nothing to release
    }

    /** FailureStatus's answer to an exception that escaped the handlers, or null to let it pass. */
    private Mapped uncaught(Throwable e) {
        return ofUncaught == null ? null : mapped(ofUncaught, e);
    }

    /** FailureStatus's answer to a 500 answer with this body, or null to keep it. */
    private Mapped serverError(String body) {
        return ofServerError == null ? null : mapped(ofServerError, body);
    }

    private Mapped mapped(MethodHandle classify, Object failure) {
        try {
            Object answer = classify.invoke(failure);
            return answer == null ? null
                    : new Mapped((int) status.invoke(answer), (String) message.invoke(answer),
                            (String) contentType.invoke(answer));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("FailureStatus failed", e);
        }
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
            Mapped answer = uncaught(e);
            if (answer == null || http.isCommitted()) {
                throw e;
            }
            http.reset();
            discardUnreadBody(request);
            answer(http, answer);
            return;
        }
        if (capture.holding) {
            discardUnreadBody(request);
        }
        capture.finish();
    }

    /**
     * Reads and drops what is left of a request body the handler did not read (a form over {@link #MAX_FORM_BYTES}
     * is read only up to the limit), up to {@link #MAX_DISCARDED_BYTES}, so that the error answer reaches a client
     * still sending: a server that answers and closes while the client's bytes are arriving makes the client's
     * system reset the connection, and the client may then see no answer at all. A body that fails to read, or one
     * past the bound, is left to the container, which closes the connection.
     */
    private static void discardUnreadBody(ServletRequest request) {
        try {
            InputStream in = request.getInputStream();
            byte[] buffer = new byte[8192];
            long left = MAX_DISCARDED_BYTES;
            int n;
            while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
                left -= n;
            }
        } catch (IOException | IllegalStateException e) {
            // the body was read as characters, or the connection failed: nothing more to do here
        }
    }

    private static void answer(HttpServletResponse http, Mapped answer) throws IOException {
        http.setStatus(answer.status());
        http.setContentType(answer.contentType());
        byte[] bytes = answer.message().getBytes(StandardCharsets.UTF_8);
        http.setContentLength(bytes.length);
        http.getOutputStream().write(bytes);
    }

    /**
     * Passes everything through until the handler sets status 500; from then on the body is held back so that
     * {@link #finish()} can decide the final status from it.
     */
    private final class Capture extends HttpServletResponseWrapper {
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

        /** Sends what was held back: under the status {@link FailureStatus#ofServerError} gives it. */
        void finish() throws IOException {
            if (writer != null) {
                writer.flush();
            }
            if (!holding) {
                return;
            }
            String body = errorMessage != null ? errorMessage : held.toString(StandardCharsets.UTF_8);
            Mapped found = serverError(body);
            Mapped mapped = found != null ? found : new Mapped(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, null, null);
            String message = mapped.message() != null ? mapped.message() : body;
            if (errorMessage != null) {
                http.sendError(mapped.status(), message);
                return;
            }
            http.setStatus(mapped.status());
            byte[] bytes = mapped.message() != null ? message.getBytes(StandardCharsets.UTF_8) : held.toByteArray();
            if (mapped.contentType() != null) {
                http.setContentType(mapped.contentType());
            }
            http.setContentLength(bytes.length);
            http.getOutputStream().write(bytes);
        }
    }
}
