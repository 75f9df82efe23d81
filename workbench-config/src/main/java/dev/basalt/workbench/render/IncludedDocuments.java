package dev.basalt.workbench.render;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import javax.servlet.RequestDispatcher;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
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
}
