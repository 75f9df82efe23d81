package dev.basalt.workbench.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import javax.servlet.DispatcherType;
import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link XsltRenderFilter} in a real servlet container (embedded Jetty) in front of a servlet that answers like the
 * Workbench: XML pages naming a stylesheet of the webapp, whose {@code document('info')} reads another page.
 */
class XsltRenderFilterTest {
    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    static final String CONTEXT = "/wb";

    @TempDir
    static Path webapp;
    static Server jetty;
    static XsltRenderFilter filter;
    static String base;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    /** What the info page saw of its request, by key (method, cookie, parameter). */
    static final Map<String, String> INFO_SAW = new ConcurrentHashMap<>();
    /** Released by the test once the first bytes of {@code /stream} arrived; that servlet waits for it. */
    static final CountDownLatch FIRST_BYTES_READ = new CountDownLatch(1);

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(webapp.resolve("transformations"));
        Files.createDirectories(webapp.resolve("locale"));
        Files.writeString(webapp.resolve("locale/labels.xsl"), """
                <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
                  <xsl:variable name="title.label">Included title</xsl:variable>
                </xsl:stylesheet>
                """);
        Files.writeString(webapp.resolve("transformations/page.xsl"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE xsl:stylesheet>
                <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                    xmlns:p="urn:page" xmlns="http://www.w3.org/1999/xhtml" exclude-result-prefixes="p">
                  <xsl:include href="../locale/labels.xsl"/>
                  <xsl:output method="html" doctype-system="about:legacy-compat"/>
                  <xsl:variable name="info" select="document(p:page/p:link/@href)"/>
                  <xsl:template match="/">
                    <html lang="en"><head><title><xsl:value-of select="$title.label"/></title>
                      <script src="x.js" type="text/javascript"></script></head>
                    <body><p id="server"><xsl:value-of select="$info/info/server"/></p>
                      <p id="text"><xsl:value-of select="p:page/p:text"/></p><br/>
                      <input name="q" value="{p:page/p:text}"/>
                      <textarea id="query"><xsl:value-of select="p:page/p:query"/></textarea>
                      <script type="text/javascript">if (1 &lt; 2 &amp;&amp; true) { var s = "x"; }</script>
                    </body></html>
                  </xsl:template>
                </xsl:stylesheet>
                """);
        Files.writeString(webapp.resolve("transformations/broken.xsl"), """
                <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
                  <xsl:template match="/"><xsl:value-of select="(("/></xsl:template>
                </xsl:stylesheet>
                """);

        jetty = new Server(0);
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath(CONTEXT);
        context.setResourceBase(webapp.toString());
        FilterHolder holder = new FilterHolder(XsltRenderFilter.class);
        holder.setInitParameter(XsltRenderFilter.MAX_PAGE_BYTES, "4096");
        context.addFilter(holder, "/repositories/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new ServletHolder(new Pages()), "/repositories/*");
        jetty.setHandler(context);
        jetty.start();
        filter = (XsltRenderFilter) holder.getFilter();
        base = "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort() + CONTEXT
                + "/repositories/";
    }

    @AfterAll
    static void stop() throws Exception {
        jetty.stop();
    }

    /** The Workbench-like pages: the body of each, written as the servlet writes it. */
    static String page(String stylesheet, String text) {
        String pi = stylesheet == null ? ""
                : "<?xml-stylesheet type='text/xsl' href='" + CONTEXT + "/transformations/" + stylesheet + "'?>";
        return "<?xml version='1.0' encoding='UTF-8'?>" + pi + "<page xmlns='urn:page'><link href='info'/>"
                + "<text>" + text + "</text><query>\nSELECT * WHERE { ?s ?p ?o }</query></page>";
    }

    static final class Pages extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String name = req.getPathInfo();
            switch (name) {
                case "/info" -> {
                    INFO_SAW.put("method", req.getMethod());
                    INFO_SAW.put("parameters", req.getParameterMap().keySet().toString());
                    INFO_SAW.put("accept", String.valueOf(req.getHeader("Accept")));
                    for (Cookie c : req.getCookies() == null ? new Cookie[0] : req.getCookies()) {
                        INFO_SAW.put("cookie " + c.getName(), c.getValue());
                    }
                    resp.setContentType("application/xml;charset=UTF-8");
                    resp.getWriter().write("<info><server>http://server.example/rdf4j-server</server></info>");
                }
                case "/page", "/broken", "/missing", "/plain", "/big" -> {
                    String stylesheet = switch (name) {
                        case "/page", "/big" -> "page.xsl";
                        case "/broken" -> "broken.xsl";
                        case "/missing" -> "missing.xsl";
                        default -> null;
                    };
                    String text = name.equals("/big") ? "x".repeat(10_000) : "a < b & \"c\" \u00e9";
                    byte[] body = page(stylesheet, text.replace("&", "&amp;").replace("<", "&lt;"))
                            .getBytes(StandardCharsets.UTF_8);
                    resp.setContentType("application/sparql-results+xml;charset=UTF-8");
                    resp.setContentLength(body.length);
                    resp.getOutputStream().write(body);
                }
                case "/written" -> {
                    // through the writer, flushed part by part, as a streaming servlet does
                    resp.setContentType("application/xml;charset=UTF-8");
                    String body = page("page.xsl", "streamed");
                    for (int at = 0; at < body.length(); at += 7) {
                        resp.getWriter().write(body, at, Math.min(7, body.length() - at));
                        resp.flushBuffer();
                    }
                }
                case "/gzipped" -> {
                    byte[] xml = page("page.xsl", "zipped").getBytes(StandardCharsets.UTF_8);
                    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
                    try (var gzip = new GZIPOutputStream(zipped)) {
                        gzip.write(xml);
                    }
                    resp.setContentType("application/xml");
                    resp.setHeader("Content-Encoding", "gzip");
                    resp.getOutputStream().write(zipped.toByteArray());
                }
                case "/stream" -> {
                    // an XML answer without a stylesheet: its first bytes reach the client before it ends
                    resp.setContentType("application/sparql-results+xml");
                    resp.getOutputStream().write("<?xml version='1.0'?><sparql><results>".getBytes(StandardCharsets.UTF_8));
                    resp.flushBuffer();
                    try {
                        if (!FIRST_BYTES_READ.await(20, TimeUnit.SECONDS)) {
                            throw new IOException("the client never saw the first bytes");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                    resp.getOutputStream().write("</results></sparql>".getBytes(StandardCharsets.UTF_8));
                }
                case "/json" -> {
                    resp.setContentType("application/json");
                    resp.getWriter().write("{\"x\": 1}");
                }
                case "/error" -> resp.sendError(500, "broken on purpose");
                default -> resp.sendError(404);
            }
        }
    }

    static HttpResponse<byte[]> get(String page, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + page)).header("Cookie", "session=s1");
        if (accept != null) {
            request.header("Accept", accept);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    static String contentType(HttpResponse<?> response) {
        return response.headers().firstValue("Content-Type").orElse("").toLowerCase().replace(" ", "");
    }

    @Test
    void browsersGetHtmlRenderedWithTheWebappsStylesheetAndDocuments() throws Exception {
        HttpResponse<byte[]> response = get("page", BROWSER);
        String html = text(response);
        assertEquals(200, response.statusCode(), html);
        assertEquals("text/html;charset=utf-8", contentType(response));
        assertEquals(String.valueOf(response.body().length), response.headers().firstValue("Content-Length").orElse(""));
        assertTrue(response.headers().allValues("Vary").contains("Accept"), response.headers().toString());
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"), html);
        // the included stylesheet, and document('info') read in-process as a GET with the page's cookies
        assertTrue(html.contains("<title>Included title</title>"), html);
        assertTrue(html.contains("<p id=\"server\">http://server.example/rdf4j-server</p>"), html);
        assertEquals("GET", INFO_SAW.get("method"));
        assertEquals("s1", INFO_SAW.get("cookie session"));
        assertEquals("application/xml", INFO_SAW.get("accept"));
        // HTML syntax: end tags for empty elements, none for void ones, escaped text, raw script text
        assertTrue(html.contains("<script src=\"x.js\" type=\"text/javascript\"></script>"), html);
        assertTrue(html.contains("<p id=\"text\">a &lt; b &amp; \"c\" \u00e9</p><br><input name=\"q\" "
                + "value=\"a < b &amp; &quot;c&quot; \u00e9\">"), html);
        // as in Chromium, whose XSLT serialised its result: the parser drops the textarea's leading newline
        assertTrue(html.contains("<textarea id=\"query\">\nSELECT * WHERE { ?s ?p ?o }</textarea>"), html);
        assertTrue(html.contains("if (1 < 2 && true) { var s = \"x\"; }</script>"), html);
        assertFalse(html.contains("xmlns"), html);
    }

    @Test
    void formPostsAreRenderedAndTheirDocumentsReadWithoutTheFormsParameters() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "page"))
                .header("Accept", BROWSER).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=ASK%7B%7D&limit=10")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("text/html;charset=utf-8", contentType(response));
        assertTrue(response.body().contains("http://server.example/rdf4j-server"), response.body());
        assertEquals("GET", INFO_SAW.get("method"));
        assertEquals("[]", INFO_SAW.get("parameters"));
    }

    @Test
    void pagesWrittenAndFlushedPieceByPieceAreRenderedWhole() throws Exception {
        HttpResponse<byte[]> response = get("written", BROWSER);
        assertEquals("text/html;charset=utf-8", contentType(response));
        assertTrue(text(response).contains("<p id=\"text\">streamed</p>"), text(response));
        HttpResponse<byte[]> xml = get("written", "*/*");
        assertEquals(page("page.xsl", "streamed"), text(xml));
    }

    @Test
    void apiClientsGetTheXmlUnchanged() throws Exception {
        byte[] xml = page("page.xsl", "a &lt; b &amp; \"c\" \u00e9").getBytes(StandardCharsets.UTF_8);
        for (String accept : new String[] {null, "*/*", "application/xml", "application/sparql-results+xml",
                "application/xml, text/xml, */*; q=0.01", "text/html;q=0, application/xml"}) {
            HttpResponse<byte[]> response = get("page", accept);
            assertArrayEquals(xml, response.body(), accept);
            assertEquals("application/sparql-results+xml;charset=utf-8", contentType(response), accept);
            assertTrue(response.headers().allValues("Vary").isEmpty(), accept);
        }
    }

    @Test
    void eachStylesheetIsCompiledOnce() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals("text/html;charset=utf-8", contentType(get("page", BROWSER)));
        }
        long compiled = filter.stylesheets().compilations();
        assertEquals("text/html;charset=utf-8", contentType(get("page", BROWSER)));
        assertEquals(compiled, filter.stylesheets().compilations());
        assertTrue(compiled >= 1);
        assertTrue(filter.stylesheets().templates("/transformations/page.xsl")
                == filter.stylesheets().templates("/transformations/page.xsl"));
    }

    @Test
    void aStylesheetThatFailsLeavesThePageAsXml() throws Exception {
        for (String name : List.of("broken", "missing")) {
            String stylesheet = name + ".xsl";
            HttpResponse<byte[]> response = get(name, BROWSER);
            assertEquals(200, response.statusCode());
            assertArrayEquals(page(stylesheet, "a &lt; b &amp; \"c\" \u00e9").getBytes(StandardCharsets.UTF_8),
                    response.body(), name);
            assertEquals("application/sparql-results+xml;charset=utf-8", contentType(response), name);
            assertEquals(String.valueOf(response.body().length),
                    response.headers().firstValue("Content-Length").orElse(""), name);
        }
        long compiled = filter.stylesheets().compilations();
        get("broken", BROWSER);
        assertEquals(compiled, filter.stylesheets().compilations(), "a stylesheet that fails is not cached as compiled");
    }

    @Test
    void otherResponsesPassThrough() throws Exception {
        HttpResponse<byte[]> plain = get("plain", BROWSER);
        assertArrayEquals(page(null, "a &lt; b &amp; \"c\" \u00e9").getBytes(StandardCharsets.UTF_8), plain.body());
        HttpResponse<byte[]> big = get("big", BROWSER);
        assertArrayEquals(page("page.xsl", "x".repeat(10_000)).getBytes(StandardCharsets.UTF_8), big.body());
        assertEquals("application/sparql-results+xml;charset=utf-8", contentType(big));
        HttpResponse<byte[]> json = get("json", BROWSER);
        assertEquals("{\"x\": 1}", text(json));
        HttpResponse<byte[]> error = get("error", BROWSER);
        assertEquals(500, error.statusCode());
        assertTrue(text(error).contains("broken on purpose"), text(error));
    }

    @Test
    void encodedAnswersAndAnswersWithoutStylesheetStreamThrough() throws Exception {
        HttpResponse<byte[]> zipped = get("gzipped", BROWSER);
        assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""));
        try (var in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertEquals(page("page.xsl", "zipped"), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }

        HttpResponse<InputStream> stream = HTTP.send(HttpRequest.newBuilder(URI.create(base + "stream"))
                .header("Accept", BROWSER).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = stream.body()) {
            byte[] first = in.readNBytes("<?xml version='1.0'?><sparql><results>".length());
            assertEquals("<?xml version='1.0'?><sparql><results>", new String(first, StandardCharsets.UTF_8));
            FIRST_BYTES_READ.countDown();
            assertEquals("</results></sparql>", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void headAnswersTheHeadersOfGet() throws Exception {
        HttpResponse<byte[]> get = get("page", BROWSER);
        HttpResponse<Void> head = HTTP.send(HttpRequest.newBuilder(URI.create(base + "page")).header("Accept", BROWSER)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals(200, head.statusCode());
        assertEquals("text/html;charset=utf-8", contentType(head));
        assertEquals(String.valueOf(get.body().length), head.headers().firstValue("Content-Length").orElse(""));
    }

    @Test
    void onlyNavigationsOfBrowsersAreRendered() {
        assertTrue(XsltRenderFilter.isBrowserPageRequest(request("GET", BROWSER)));
        assertTrue(XsltRenderFilter.isBrowserPageRequest(request("POST", "application/xhtml+xml")));
        assertFalse(XsltRenderFilter.isBrowserPageRequest(request("GET", "*/*")));
        assertFalse(XsltRenderFilter.isBrowserPageRequest(request("GET", "text/html;q=0")));
        assertFalse(XsltRenderFilter.isBrowserPageRequest(request("PUT", BROWSER)));
        assertFalse(XsltRenderFilter.isBrowserPageRequest(request("GET", null)));
    }

    @Test
    void stylesheetsOutsideTheWebappAreNotRead() {
        HttpServletRequest page = request("GET", BROWSER);
        assertEquals("/transformations/page.xsl", XsltRenderFilter.stylesheetPath(page, "/wb/transformations/page.xsl"));
        assertEquals("/transformations/page.xsl", XsltRenderFilter.stylesheetPath(page, "../../transformations/page.xsl"));
        assertNull(XsltRenderFilter.stylesheetPath(page, "http://elsewhere.example/wb/transformations/page.xsl"));
        assertNull(XsltRenderFilter.stylesheetPath(page, "/other/transformations/page.xsl"));
        assertNull(XsltRenderFilter.stylesheetPath(page, "/wb/../other/page.xsl"));
    }

    /** A request of {@code method} with {@code accept}, at {@code http://127.0.0.1:8080/wb/repositories/r/query}. */
    private static HttpServletRequest request(String method, String accept) {
        return (HttpServletRequest) Proxy.newProxyInstance(XsltRenderFilterTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getHeaders" -> Collections.enumeration(accept == null ? List.of() : List.of(accept));
                    case "getRequestURL" -> new StringBuffer("http://127.0.0.1:8080/wb/repositories/r/query");
                    case "getContextPath" -> CONTEXT;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }
}
