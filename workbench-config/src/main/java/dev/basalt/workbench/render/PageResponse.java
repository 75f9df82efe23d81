package dev.basalt.workbench.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.servlet.ServletOutputStream;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;

/**
 * A browser's response on its way out of the webapp, held until it is known whether it is an XML page with a
 * stylesheet to apply.
 *
 * <p>States: while nothing is written it is {@code UNDECIDED}; the first bytes of an XML response
 * ({@code *}/{@code xml} or {@code *}/{@code *+xml}, no {@code Content-Encoding}) are held ({@code SNIFFING}) until
 * the prolog shows whether it carries an {@code <?xml-stylesheet?>}; with one, the whole body is held
 * ({@code HOLDING}) for {@link XsltRenderFilter} to transform; anything else (another type, no stylesheet, an
 * error page, a redirect, a body past the holding limit) is {@code PASSING}: what was held is written out and the
 * rest streams straight to the client. While bytes are held, {@code Content-Length} is kept back (the body's
 * length changes when it is transformed), flushes do not commit, and {@code reset} clears the held bytes.
 *
 * <p>One instance per request, used by the request's thread.
 */
final class PageResponse extends HttpServletResponseWrapper {
    private enum State { UNDECIDED, SNIFFING, HOLDING, PASSING }

    /** The prolog of an XML page is a few hundred bytes; one this long without a root element is not a page. */
    static final int MAX_PROLOG_BYTES = 16 * 1024;

    private final long maxHeldBytes;
    private final Holder held = new Holder();
    private State state = State.UNDECIDED;
    private StylesheetInstruction instruction;
    /** Content-Length set by the webapp while bytes were held; -1 if none. */
    private long heldContentLength = -1;
    private ServletOutputStream stream;
    private PrintWriter writer;
    private boolean passedOnBecauseTooLong;

    PageResponse(HttpServletResponse response, long maxHeldBytes) {
        super(response);
        this.maxHeldBytes = maxHeldBytes;
    }

    /** The instruction of a page held whole, or null if the response went (or goes) out as it is. */
    StylesheetInstruction heldPage() {
        flushWriter();
        return state == State.HOLDING ? instruction : null;
    }

    /** The bytes of the held page. */
    byte[] heldBytes() {
        return held.toByteArray();
    }

    /** Whether the page was passed on untransformed because it grew past the holding limit. */
    boolean passedOnBecauseTooLong() {
        return passedOnBecauseTooLong;
    }

    /** Ends holding: whatever is held goes out as it was written (used for fallbacks and at the end). */
    void passOn() throws IOException {
        flushWriter();
        passOnHeld();
    }

    /**
     * Switches to passing and writes out what is held. Does not flush the webapp's writer: it runs inside that
     * writer's own flush (through {@link Stream#write}), which must not be entered again.
     */
    private void passOnHeld() throws IOException {
        if (state == State.PASSING) {
            return;
        }
        state = State.PASSING;
        if (heldContentLength >= 0) {
            super.setContentLengthLong(heldContentLength);
        }
        if (held.size() > 0) {
            held.writeTo(super.getOutputStream());
            held.reset();
        }
    }

    /** Drops what is held (the webapp failed; the container answers with its error page). */
    void discardHeld() {
        if (state != State.PASSING) {
            held.reset();
        }
    }

    private void flushWriter() {
        if (writer != null) {
            writer.flush();
        }
    }

    private void written() throws IOException {
        if (state == State.UNDECIDED) {
            if (isXml(getContentType()) && getHeader("Content-Encoding") == null) {
                state = State.SNIFFING;
            } else {
                passOnHeld();
            }
        }
        if (state == State.SNIFFING) {
            StylesheetInstruction.Scan scan = StylesheetInstruction.scan(held.buffer(), held.size());
            if (scan.outcome() == StylesheetInstruction.Outcome.FOUND) {
                instruction = scan.instruction();
                state = State.HOLDING;
            } else if (scan.outcome() == StylesheetInstruction.Outcome.NONE || held.size() > MAX_PROLOG_BYTES) {
                passOnHeld();
            }
        }
        if (state == State.HOLDING && held.size() > maxHeldBytes) {
            passedOnBecauseTooLong = true;
            passOnHeld();
        }
    }

    private static boolean isXml(String contentType) {
        return IncludedDocuments.isXml(contentType);
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (writer != null) {
            throw new IllegalStateException("getWriter() was called on this response already");
        }
        if (stream == null) {
            stream = new Stream();
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) {
            if (stream != null) {
                throw new IllegalStateException("getOutputStream() was called on this response already");
            }
            stream = new Stream();
            writer = new PrintWriter(new OutputStreamWriter(stream, charset()));
        }
        return writer;
    }

    private Charset charset() {
        try {
            return Charset.forName(getCharacterEncoding());
        } catch (IllegalArgumentException e) {
            return StandardCharsets.ISO_8859_1;
        }
    }

    @Override
    public void setContentLength(int len) {
        setContentLengthLong(len);
    }

    @Override
    public void setContentLengthLong(long len) {
        if (state == State.PASSING) {
            super.setContentLengthLong(len);
        } else {
            heldContentLength = len;
        }
    }

    @Override
    public void setHeader(String name, String value) {
        if (!holdsLength(name, value)) {
            super.setHeader(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (!holdsLength(name, value)) {
            super.addHeader(name, value);
        }
    }

    @Override
    public void setIntHeader(String name, int value) {
        if (!holdsLength(name, String.valueOf(value))) {
            super.setIntHeader(name, value);
        }
    }

    @Override
    public void addIntHeader(String name, int value) {
        if (!holdsLength(name, String.valueOf(value))) {
            super.addIntHeader(name, value);
        }
    }

    /** Keeps a {@code Content-Length} header back while bytes are held; whether it did. */
    private boolean holdsLength(String name, String value) {
        if (state == State.PASSING || !isContentLength(name)) {
            return false;
        }
        heldContentLength = value == null ? -1 : Long.parseLong(value.trim());
        return true;
    }

    private static boolean isContentLength(String name) {
        return "content-length".equals(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public void flushBuffer() throws IOException {
        flushWriter();
        if (state == State.PASSING) {
            super.flushBuffer();
        }
    }

    @Override
    public void resetBuffer() {
        super.resetBuffer();
        held.reset();
        if (state != State.PASSING) {
            state = State.UNDECIDED;
        }
    }

    @Override
    public void reset() {
        super.reset();
        held.reset();
        heldContentLength = -1;
        if (state != State.PASSING) {
            state = State.UNDECIDED;
        }
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
        held.reset();
        state = State.PASSING;
        super.sendError(sc, msg);
    }

    @Override
    public void sendError(int sc) throws IOException {
        held.reset();
        state = State.PASSING;
        super.sendError(sc);
    }

    @Override
    public void sendRedirect(String location) throws IOException {
        held.reset();
        state = State.PASSING;
        super.sendRedirect(location);
    }

    /** The webapp's output stream: into the holder while held, to the client once passing. */
    private final class Stream extends ServletOutputStream {
        @Override
        public void write(int b) throws IOException {
            if (state == State.PASSING) {
                PageResponse.super.getOutputStream().write(b);
            } else {
                held.write(b);
                written();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (state == State.PASSING) {
                PageResponse.super.getOutputStream().write(b, off, len);
            } else {
                held.write(b, off, len);
                written();
            }
        }

        @Override
        public void flush() throws IOException {
            if (state == State.PASSING) {
                PageResponse.super.getOutputStream().flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (state == State.PASSING) {
                PageResponse.super.getOutputStream().close();
            }
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new IllegalStateException("pages for browsers are written synchronously");
        }
    }

    /** A byte buffer whose array the prolog scan reads without copying. */
    private static final class Holder extends ByteArrayOutputStream {
        byte[] buffer() {
            return buf;
        }
    }
}
