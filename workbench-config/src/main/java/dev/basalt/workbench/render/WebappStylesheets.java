package dev.basalt.workbench.render;

import java.io.InputStream;
import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.servlet.ServletContext;
import javax.xml.XMLConstants;
import javax.xml.transform.Source;
import javax.xml.transform.Templates;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.URIResolver;
import javax.xml.transform.stream.StreamSource;

/**
 * The webapp's XSLT stylesheets, compiled once by the JDK's own processor ({@link TransformerFactory#newDefaultInstance},
 * whatever XSLT library the webapp's class path carries) and kept as thread-safe {@link Templates} per path.
 *
 * <p>A stylesheet and everything it includes or imports is read from the webapp's resources through the
 * {@link ServletContext}, never over HTTP: a stylesheet at {@code /transformations/query.xsl} has the system id
 * {@code webapp:/transformations/query.xsl}, so {@code <xsl:include href="../locale/messages.xsl"/>} resolves to
 * {@code webapp:/locale/messages.xsl}. An address that leaves the webapp is refused. Compilation runs with secure
 * processing and with no external access besides this resolver. A stylesheet that does not compile is not cached;
 * the next request tries again. An edited stylesheet is read again when the webapp restarts.
 *
 * <p>Thread-safe: concurrent first requests for one stylesheet compile it once (the map computes under its lock
 * for that key; other keys go on).
 */
final class WebappStylesheets {
    static final String SCHEME = "webapp";

    private final ServletContext webapp;
    private final TransformerFactory factory;
    private final ConcurrentMap<String, Templates> compiled = new ConcurrentHashMap<>();
    private final AtomicLong compilations = new AtomicLong();

    WebappStylesheets(ServletContext webapp) {
        this.webapp = webapp;
        this.factory = TransformerFactory.newDefaultInstance();
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (TransformerConfigurationException e) {
            throw new IllegalStateException("the JDK's XSLT processor refuses secure processing", e);
        }
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
        factory.setURIResolver(this::resolve);
    }

    /**
     * The compiled stylesheet at {@code path} (webapp-relative, starting with {@code /}).
     *
     * @throws TransformerException if it is missing or does not compile; the message names the file and line
     */
    Templates templates(String path) throws TransformerException {
        Templates templates = compiled.get(path);
        if (templates != null) {
            return templates;
        }
        try {
            return compiled.computeIfAbsent(path, p -> {
                try {
                    Templates t = factory.newTemplates(resolve(SCHEME + ":" + p, null));
                    compilations.incrementAndGet();
                    return t;
                } catch (TransformerException e) {
                    throw new UncheckedTransformerException(e);
                }
            });
        } catch (UncheckedTransformerException e) {
            throw e.cause;
        }
    }

    /** How many stylesheets were compiled so far (each at most once while it compiles). */
    long compilations() {
        return compilations.get();
    }

    /** The resolver for stylesheets: {@code href} against {@code base}, read from the webapp's resources. */
    private Source resolve(String href, String base) throws TransformerException {
        URI uri;
        try {
            uri = base == null || base.isEmpty() ? new URI(href) : new URI(base).resolve(href);
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new TransformerException("stylesheet address '" + href + "' (from " + base + ") is malformed", e);
        }
        if (!SCHEME.equals(uri.getScheme()) || uri.getPath() == null || !uri.getPath().startsWith("/")) {
            throw new TransformerException("stylesheet " + base + " refers to '" + href
                    + "' outside the webapp; only the webapp's own files are read");
        }
        String path = uri.normalize().getPath();
        if (path.startsWith("/..")) {
            throw new TransformerException("stylesheet " + base + " refers to '" + href + "' above the webapp's root");
        }
        InputStream in = webapp.getResourceAsStream(path);
        if (in == null) {
            throw new TransformerException("stylesheet " + path + " not found in the webapp"
                    + (base == null ? "" : " (referred to from " + base + ")"));
        }
        return new StreamSource(in, SCHEME + ":" + path);
    }

    /** Carries a compilation failure out of {@link ConcurrentMap#computeIfAbsent}. */
    private static final class UncheckedTransformerException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient TransformerException cause;

        UncheckedTransformerException(TransformerException cause) {
            super(cause);
            this.cause = cause;
        }
    }
}
