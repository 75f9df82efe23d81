package dev.basalt.workbench.render;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.servlet.ReadListener;
import javax.servlet.RequestDispatcher;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.Part;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.Source;
import javax.xml.transform.URIResolver;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a stylesheet's {@code document(...)} calls as the browser did: the address resolves against the page's
 * own URL, and a page of this webapp ({@code document('info')} on {@code .../repositories/web/query} reads
 * {@code .../repositories/web/info}) is fetched with a GET carrying the page request's cookies and credentials.
 * The fetch is an in-process {@link RequestDispatcher#include include} of the webapp's own servlet, not an HTTP
 * request: the included request is the page request with the method, address, parameters and body of a plain GET
 * of the document, and {@code Accept: application/xml}.
 *
 * <p>Where the browser's {@code document()} would come back empty (another site, an error answer, no XML), the
 * result is an empty document and a warning is logged; the page still renders, as it did in the browser. One
 * instance per transformation, used on the request's thread.
 */
final class IncludedDocuments implements URIResolver {
    private static final Logger LOG = LoggerFactory.getLogger(IncludedDocuments.class);

    private final HttpServletRequest page;
    private final ServletContext webapp;

    IncludedDocuments(HttpServletRequest page, ServletContext webapp) {
        this.page = page;
        this.webapp = webapp;
    }

    @Override
    public Source resolve(String href, String base) {
        String pageUrl = page.getRequestURL().toString();
        URI target;
        try {
            target = new URI(base == null || base.isEmpty() ? pageUrl : base).resolve(href.trim());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return empty("document('" + href + "') of " + pageUrl + " is not an address: " + e.getMessage(), href);
        }
        URI origin = URI.create(pageUrl);
        String contextPath = page.getContextPath();
        String path = target.getRawPath();
        if (!sameOrigin(origin, target) || path == null || !path.startsWith(contextPath + "/")) {
            return empty("document('" + href + "') of " + pageUrl + " leaves the webapp (" + target + "); not fetched",
                    target.toString());
        }
        String inContext = path.substring(contextPath.length())
                + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
        RequestDispatcher dispatcher = webapp.getRequestDispatcher(inContext);
        if (dispatcher == null) {
            return empty("no servlet of the webapp answers " + target, target.toString());
        }
        IncludeCapture answer = new IncludeCapture();
        try {
            dispatcher.include(new DocumentRequest(page, target), answer);
        } catch (ServletException | IOException | RuntimeException e) {
            LOG.warn("document('{}') of {}: {} failed; the page renders without it", href, pageUrl, target, e);
            return empty(null, target.toString());
        }
        if (answer.getStatus() >= 400 || answer.body().length == 0 || !isXml(answer.getContentType())) {
            return empty("document('" + href + "') of " + pageUrl + ": " + target + " answered status "
                    + answer.getStatus() + ", " + answer.body().length + " bytes of " + answer.getContentType()
                    + "; the page renders without it", target.toString());
        }
        return new StreamSource(new ByteArrayInputStream(answer.body()), target.toString());
    }

    static boolean isXml(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.endsWith("/xml") || type.endsWith("+xml");
    }

    private static boolean sameOrigin(URI a, URI b) {
        return b.getScheme() != null && b.getScheme().equalsIgnoreCase(a.getScheme())
                && b.getHost() != null && b.getHost().equalsIgnoreCase(a.getHost()) && port(a) == port(b);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static Source empty(String warning, String systemId) {
        if (warning != null) {
            LOG.warn(warning);
        }
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
            factory.setNamespaceAware(true);
            return new DOMSource(factory.newDocumentBuilder().newDocument(), systemId);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's DOM builder is unavailable", e);
        }
    }

    /**
     * The page request as a plain GET of {@code target}: its cookies, credentials, session and connection, nothing of
     * its method, body or parameters. Inside the include, the servlet path and path info are the container's
     * mapping of the target ({@code javax.servlet.include.*} attributes).
     */
    static final class DocumentRequest extends HttpServletRequestWrapper {
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
        public java.util.Collection<Part> getParts() {
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
}
