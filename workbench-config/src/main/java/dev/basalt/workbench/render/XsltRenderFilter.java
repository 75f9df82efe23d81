package dev.basalt.workbench.render;

import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.xml.transform.ErrorListener;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.sax.SAXResult;
import javax.xml.transform.stream.StreamSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-side XSLT for RDF4J Workbench: a servlet filter in front of the Workbench's servlet that applies the
 * stylesheet an XML page names in its {@code <?xml-stylesheet?>} instruction, so that browsers get HTML and need
 * no XSLT of their own (Chromium removes it). Same URLs, same forms, same scripts: the output is the HTML the
 * browser's own XSLT produced from the same stylesheets.
 *
 * <p><b>When it transforms.</b> Only when both hold: the request comes from a browser navigating, i.e. its
 * {@code Accept} header names {@code text/html} or {@code application/xhtml+xml} with a non-zero quality (browsers
 * send this for pages and form submissions; their scripts' XHR/fetch calls, RDF4J's clients, curl and other API
 * clients do not, and keep getting the XML byte for byte); and the response is XML ({@code *}/{@code xml},
 * {@code *}/{@code *+xml}, not content-encoded) whose prolog has an {@code <?xml-stylesheet?>} of an XSLT type.
 * Every other response streams through untouched (see {@link PageResponse}). A transformed page is sent as
 * {@code text/html; charset=UTF-8} with its exact {@code Content-Length} and {@code Vary: Accept} (also on the
 * untransformed XML of such a page), the webapp's other headers and status kept. {@code HEAD} gets the same
 * headers as {@code GET}.
 *
 * <p><b>How.</b> The JDK's XSLT processor; stylesheets come from the webapp's files ({@link WebappStylesheets},
 * compiled once); their {@code document()} calls read the webapp's own pages in-process with the request's
 * cookies ({@link IncludedDocuments}); the result is written as HTML5 ({@link HtmlWriter}).
 *
 * <p><b>Failures.</b> A stylesheet outside the webapp, one that does not compile, or a transformation error is
 * logged (with the page's address, the stylesheet and the processor's message with line) and the page goes out
 * as the XML it was, as without this filter. A page longer than {@code maxPageBytes} (init parameter, default
 * 64 MiB; the browser held it whole too) goes out untransformed as well.
 *
 * <p>Install: the jar in the Workbench's {@code WEB-INF/lib}, and in its {@code web.xml} this filter mapped to
 * {@code /repositories/*} for the {@code REQUEST} dispatcher (docs/operator-guide.md). Thread-safe: one instance
 * serves all requests; per-request state lives in the request's own objects.
 */
public final class XsltRenderFilter implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(XsltRenderFilter.class);
    static final String MAX_PAGE_BYTES = "maxPageBytes";
    static final long DEFAULT_MAX_PAGE_BYTES = 64L << 20;
    static final String HTML = "text/html;charset=UTF-8";

    private ServletContext webapp;
    private WebappStylesheets stylesheets;
    private long maxPageBytes = DEFAULT_MAX_PAGE_BYTES;

    @Override
    public void init(FilterConfig config) throws ServletException {
        webapp = config.getServletContext();
        stylesheets = new WebappStylesheets(webapp);
        String max = config.getInitParameter(MAX_PAGE_BYTES);
        if (max != null) {
            try {
                maxPageBytes = Long.parseLong(max.trim());
            } catch (NumberFormatException e) {
                throw new ServletException("filter " + config.getFilterName() + ": init-param " + MAX_PAGE_BYTES
                        + " must be a number of bytes, got '" + max + "'");
            }
        }
    }

    /** The compiled stylesheets of this filter's webapp. */
    WebappStylesheets stylesheets() {
        return stylesheets;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
            throws IOException, ServletException {
        if (!(req instanceof HttpServletRequest request) || !(resp instanceof HttpServletResponse response)
                || !isBrowserPageRequest(request)) {
            chain.doFilter(req, resp);
            return;
        }
        PageResponse page = new PageResponse(response, maxPageBytes);
        try {
            chain.doFilter(request, page);
        } catch (IOException | ServletException | RuntimeException e) {
            page.discardHeld();
            throw e;
        }
        if (request.isAsyncStarted()) {
            page.passOn();
            return;
        }
        StylesheetInstruction instruction = page.heldPage();
        if (instruction == null) {
            if (page.passedOnBecauseTooLong()) {
                LOG.info("{} is longer than {} bytes; sent as XML for the browser to transform",
                        request.getRequestURI(), maxPageBytes);
            }
            page.passOn();
            return;
        }
        response.setHeader("Vary", vary(response.getHeader("Vary")));
        byte[] html = render(request, page, instruction);
        if (html == null) {
            page.passOn();
            return;
        }
        response.setContentType(HTML);
        response.setContentLength(html.length);
        response.getOutputStream().write(html);
    }

    /**
     * Whether the request is a browser asking for a page it will display: GET, HEAD or POST with an {@code Accept}
     * that lists {@code text/html} or {@code application/xhtml+xml} with a quality above zero.
     */
    static boolean isBrowserPageRequest(HttpServletRequest request) {
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method) && !"POST".equals(method)) {
            return false;
        }
        for (java.util.Enumeration<String> headers = request.getHeaders("Accept"); headers != null
                && headers.hasMoreElements(); ) {
            for (String range : headers.nextElement().split(",")) {
                String[] parts = range.split(";");
                String type = parts[0].trim().toLowerCase(Locale.ROOT);
                if ((type.equals("text/html") || type.equals("application/xhtml+xml")) && quality(parts) > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static double quality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim().toLowerCase(Locale.ROOT);
            if (p.startsWith("q=")) {
                try {
                    return Double.parseDouble(p.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }

    private static String vary(String existing) {
        if (existing == null || existing.isBlank()) {
            return "Accept";
        }
        for (String name : existing.split(",")) {
            if (name.trim().equalsIgnoreCase("Accept") || name.trim().equals("*")) {
                return existing;
            }
        }
        return existing + ", Accept";
    }

    /** The page transformed to HTML, or null (logged) if it cannot be. */
    private byte[] render(HttpServletRequest request, PageResponse page, StylesheetInstruction instruction) {
        String pageUrl = request.getRequestURL().toString();
        String path = stylesheetPath(request, instruction.href());
        if (path == null) {
            LOG.warn("{}: stylesheet '{}' is not a file of this webapp ({}); sent as XML", pageUrl,
                    instruction.href(), request.getContextPath());
            return null;
        }
        try {
            Transformer transformer = stylesheets.templates(path).newTransformer();
            transformer.setURIResolver(new IncludedDocuments(request, webapp));
            transformer.setErrorListener(new LoggingErrors(pageUrl, path));
            // The result goes to HtmlWriter as SAX events; the JDK's SAX handler for method="html" is broken
            // (it fails on its first namespaced element), its XML one hands on the same events.
            transformer.setOutputProperty(OutputKeys.METHOD, "xml");
            byte[] xml = page.heldBytes();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(8192, xml.length * 2));
            try (Writer out = new BufferedWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), 1 << 16)) {
                transformer.transform(source(xml, page, pageUrl), new SAXResult(new HtmlWriter(out)));
            }
            return bytes.toByteArray();
        } catch (TransformerException e) {
            LOG.warn("{}: applying {} failed, sent as XML: {}", pageUrl, path, e.getMessageAndLocation(), e);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: applying {} failed, sent as XML", pageUrl, path, e);
        }
        return null;
    }

    /**
     * The page as a source whose base is the page's URL (for its relative {@code document()} addresses); read in
     * the response's declared charset when it names one, as the browser does, else by the XML declaration.
     */
    private static StreamSource source(byte[] xml, PageResponse page, String pageUrl) {
        String contentType = page.getContentType();
        StreamSource source;
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).contains("charset=")) {
            Charset charset;
            try {
                charset = Charset.forName(page.getCharacterEncoding());
            } catch (IllegalArgumentException e) {
                charset = StandardCharsets.UTF_8;
            }
            source = new StreamSource(new InputStreamReader(new ByteArrayInputStream(xml), charset));
        } else {
            source = new StreamSource(new ByteArrayInputStream(xml));
        }
        source.setSystemId(pageUrl);
        return source;
    }

    /**
     * The webapp-relative path of the stylesheet at {@code href} (resolved against the page's URL), or null if it
     * is not under this webapp on the page's own origin.
     */
    static String stylesheetPath(HttpServletRequest request, String href) {
        try {
            URI page = new URI(request.getRequestURL().toString());
            URI target = page.resolve(href);
            if (target.getScheme() == null || !target.getScheme().equalsIgnoreCase(page.getScheme())
                    || target.getHost() == null || !target.getHost().equalsIgnoreCase(page.getHost())
                    || target.getPort() != page.getPort()) {
                return null;
            }
            String path = target.normalize().getPath();
            String context = request.getContextPath();
            if (path == null || !path.startsWith(context + "/") || path.contains("/../")) {
                return null;
            }
            return path.substring(context.length());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public void destroy() {
        stylesheets = null;
    }

    /**
     * Logs the processor's warnings at DEBUG: they include the stylesheets' {@code xsl:message}s (the Workbench's
     * URL encoder writes one for every character outside Latin-1), which the browser sent to its console. Errors
     * end the transformation and are logged once, by the caller.
     */
    private record LoggingErrors(String page, String stylesheet) implements ErrorListener {
        @Override
        public void warning(TransformerException e) {
            LOG.debug("{}: {}: {}", page, stylesheet, e.getMessageAndLocation());
        }

        @Override
        public void error(TransformerException e) throws TransformerException {
            throw e;
        }

        @Override
        public void fatalError(TransformerException e) throws TransformerException {
            throw e;
        }
    }
}
