package dev.basalt.workbench.render;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

import javax.servlet.ServletOutputStream;
import javax.servlet.WriteListener;
import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServletResponse;

/**
 * The answer of an included servlet, held in memory: status, content type and body. Nothing reaches the page's
 * own response (headers, cookies and status of an included answer have no place in it, as the browser's
 * {@code document()} fetch did not change the page either). One instance per include; not thread-safe.
 */
final class IncludeCapture implements HttpServletResponse {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private int status = SC_OK;
    private String contentType;
    private String characterEncoding;
    private PrintWriter writer;
    private ServletOutputStream stream;

    byte[] body() {
        if (writer != null) {
            writer.flush();
        }
        return body.toByteArray();
    }

    @Override
    public ServletOutputStream getOutputStream() {
        if (stream == null) {
            stream = new ServletOutputStream() {
                @Override
                public void write(int b) {
                    body.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    body.write(b, off, len);
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new IllegalStateException("an included answer is written synchronously");
                }
            };
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() {
        if (writer == null) {
            writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), charset()));
        }
        return writer;
    }

    private Charset charset() {
        try {
            return characterEncoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(characterEncoding);
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }

    @Override
    public void setContentType(String type) {
        contentType = type;
        if (type != null) {
            for (String parameter : type.split(";")) {
                String p = parameter.trim();
                if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                    characterEncoding = p.substring(8).replace("\"", "").trim();
                }
            }
        }
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    @Override
    public void setCharacterEncoding(String charset) {
        characterEncoding = charset;
    }

    @Override
    public String getCharacterEncoding() {
        return characterEncoding == null ? StandardCharsets.ISO_8859_1.name() : characterEncoding;
    }

    @Override
    public void setStatus(int sc) {
        status = sc;
    }

    @Override
    @Deprecated
    public void setStatus(int sc, String sm) {
        status = sc;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void sendError(int sc, String msg) {
        status = sc;
    }

    @Override
    public void sendError(int sc) {
        status = sc;
    }

    @Override
    public void sendRedirect(String location) {
        status = SC_FOUND;
    }

    @Override
    public void addCookie(Cookie cookie) {
        // the browser's document() fetch set no cookies on the page either
    }

    @Override
    public boolean containsHeader(String name) {
        return false;
    }

    @Override
    public String encodeURL(String url) {
        return url;
    }

    @Override
    public String encodeRedirectURL(String url) {
        return url;
    }

    @Override
    @Deprecated
    public String encodeUrl(String url) {
        return url;
    }

    @Override
    @Deprecated
    public String encodeRedirectUrl(String url) {
        return url;
    }

    @Override
    public void setDateHeader(String name, long date) {
        // headers of an included answer are dropped
    }

    @Override
    public void addDateHeader(String name, long date) {
        // as above
    }

    @Override
    public void setHeader(String name, String value) {
        if ("content-type".equalsIgnoreCase(name)) {
            setContentType(value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        setHeader(name, value);
    }

    @Override
    public void setIntHeader(String name, int value) {
        // as above
    }

    @Override
    public void addIntHeader(String name, int value) {
        // as above
    }

    @Override
    public String getHeader(String name) {
        return "content-type".equalsIgnoreCase(name) ? contentType : null;
    }

    @Override
    public Collection<String> getHeaders(String name) {
        String value = getHeader(name);
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public Collection<String> getHeaderNames() {
        return contentType == null ? List.of() : List.of("Content-Type");
    }

    @Override
    public void setContentLength(int len) {
        // the body is held whole
    }

    @Override
    public void setContentLengthLong(long len) {
        // as above
    }

    @Override
    public void setBufferSize(int size) {
        // as above
    }

    @Override
    public int getBufferSize() {
        return Integer.MAX_VALUE;
    }

    @Override
    public void flushBuffer() {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void resetBuffer() {
        flushBuffer();
        body.reset();
    }

    @Override
    public boolean isCommitted() {
        return false;
    }

    @Override
    public void reset() {
        resetBuffer();
        status = SC_OK;
        contentType = null;
    }

    @Override
    public void setLocale(Locale loc) {
        // as above
    }

    @Override
    public Locale getLocale() {
        return Locale.getDefault();
    }
}
