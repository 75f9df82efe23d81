package dev.basalt.workbench.render;

import java.io.BufferedReader;
import java.io.StringReader;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.servlet.ReadListener;
import javax.servlet.RequestDispatcher;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.Part;

/**
 * The page request as a plain GET of {@code target}: its cookies, credentials, session and connection, nothing of
 * its method, body or parameters. Inside the include, the servlet path and path info are the container's
 * mapping of the target ({@code javax.servlet.include.*} attributes). Used by {@link IncludedDocuments} for one
 * include, on the request's thread.
 */
final class DocumentRequest extends HttpServletRequestWrapper {
    private static final String ACCEPT = "application/xml";
    private final URI target;
    private final Map<String, String[]> parameters;

    DocumentRequest(HttpServletRequest page, URI target) {
        super(page);
        this.target = target;
        this.parameters = Collections.unmodifiableMap(parse(target.getRawQuery()));
    }

    @Override
    public String getMethod() {
        return "GET";
    }

    @Override
    public String getRequestURI() {
        return target.getRawPath();
    }

    @Override
    public StringBuffer getRequestURL() {
        return new StringBuffer(target.getScheme()).append("://").append(target.getRawAuthority())
                .append(target.getRawPath());
    }

    @Override
    public String getQueryString() {
        return target.getRawQuery();
    }

    @Override
    public String getServletPath() {
        Object included = getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH);
        return included != null ? (String) included : super.getServletPath();
    }

    @Override
    public String getPathInfo() {
        if (getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH) != null) {
            return (String) getAttribute(RequestDispatcher.INCLUDE_PATH_INFO);
        }
        return super.getPathInfo();
    }

    @Override
    public String getPathTranslated() {
        String info = getPathInfo();
        return info == null ? null : getServletContext().getRealPath(info);
    }

    @Override
    public String getParameter(String name) {
        String[] values = parameters.get(name);
        return values == null ? null : values[0];
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return parameters;
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(parameters.keySet());
    }

    @Override
    public String[] getParameterValues(String name) {
        String[] values = parameters.get(name);
        return values == null ? null : values.clone();
    }

    @Override
    public String getContentType() {
        return null;
    }

    @Override
    public int getContentLength() {
        return -1;
    }

    @Override
    public long getContentLengthLong() {
        return -1;
    }

    @Override
    public ServletInputStream getInputStream() {
        return new ServletInputStream() {
            @Override
            public int read() {
                return -1;
            }

            @Override
            public boolean isFinished() {
                return true;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the included GET has no body to read asynchronously");
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new StringReader(""));
    }

    @Override
    public String getHeader(String name) {
        if (isBodyHeader(name)) {
            return null;
        }
        return "accept".equalsIgnoreCase(name) ? ACCEPT : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        String value = getHeader(name);
        if ("accept".equalsIgnoreCase(name) || isBodyHeader(name)) {
            return Collections.enumeration(value == null ? List.of() : List.of(value));
        }
        return super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        List<String> names = new ArrayList<>();
        for (Enumeration<String> e = super.getHeaderNames(); e.hasMoreElements(); ) {
            String name = e.nextElement();
            if (!isBodyHeader(name) && !"accept".equalsIgnoreCase(name)) {
                names.add(name);
            }
        }
        names.add("Accept");
        return Collections.enumeration(names);
    }

    @Override
    public long getDateHeader(String name) {
        return isBodyHeader(name) ? -1 : super.getDateHeader(name);
    }

    @Override
    public int getIntHeader(String name) {
        return isBodyHeader(name) ? -1 : super.getIntHeader(name);
    }

    @Override
    public Collection<Part> getParts() {
        return List.of();
    }

    @Override
    public Part getPart(String name) {
        return null;
    }

    private static boolean isBodyHeader(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.startsWith("content-") || n.equals("transfer-encoding");
    }

    private static Map<String, String[]> parse(String rawQuery) {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                lists.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            }
        }
        Map<String, String[]> arrays = new LinkedHashMap<>();
        lists.forEach((name, values) -> arrays.put(name, values.toArray(String[]::new)));
        return arrays;
    }
}
