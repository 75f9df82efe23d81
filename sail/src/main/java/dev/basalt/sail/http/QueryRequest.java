package dev.basalt.sail.http;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;

import org.eclipse.rdf4j.http.protocol.Protocol;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.impl.SimpleDataset;

/**
 * A SPARQL query request to one repository of RDF4J Server (GET or POST to {@code /repositories/ID}) in the
 * form the fast path answers: the query as a parameter, a form body or a {@code application/sparql-query}
 * body, and no parameters but {@code query}, {@code default-graph-uri}, {@code named-graph-uri}, {@code infer},
 * {@code timeout} and {@code $name} bindings. Anything else ({@code HEAD}, {@code queryLn}, {@code baseURI},
 * {@code limit}, {@code offset}, {@code distinct}, {@code Accept} or {@code callback} parameters, other paths or
 * content types) is not one ({@link #of} answers null), and RDF4J Server answers it. Parameter values RDF4J
 * Server would refuse make {@link #applyTo} answer false, so RDF4J Server answers those too, with its own
 * status and message. A GET's query string is decoded here where it can ({@link #parseQueryString}). An instance
 * belongs to one request; not thread-safe.
 */
final class QueryRequest {
    static final String FORM = "application/x-www-form-urlencoded";
    static final String SPARQL_QUERY = "application/sparql-query";
    private static final String REPOSITORIES = "/repositories";

    final String repositoryId;
    final String query;
    /** the request to pass on when RDF4J Server is to answer after all: its body can be read again */
    final HttpServletRequest request;
    /** the request's parameters, decoded as the servlet container decodes them */
    private final Map<String, List<String>> parameters;

    private QueryRequest(String repositoryId, String query, HttpServletRequest request,
            Map<String, List<String>> parameters) {
        this.repositoryId = repositoryId;
        this.query = query;
        this.request = request;
        this.parameters = parameters;
    }

    /**
     * The query request {@code http} is, or null if it is none the fast path answers. Reads an
     * {@code application/sparql-query} body; the request in the answer (and in {@code passOn[0]}, for a null
     * answer) can read it again.
     */
    static QueryRequest of(HttpServletRequest http, HttpServletRequest[] passOn) throws IOException {
        passOn[0] = http;
        String method = http.getMethod();
        String id = repositoryId(http);
        if (id == null || !(method.equals("GET") || method.equals("POST"))) {
            return null;
        }
        Map<String, List<String>> parameters = method.equals("GET") ? parseQueryString(http.getQueryString()) : null;
        if (parameters == null) {
            parameters = new LinkedHashMap<>();
            for (Map.Entry<String, String[]> p : http.getParameterMap().entrySet()) {
                parameters.put(p.getKey(), List.of(p.getValue()));
            }
        }
        if (!onlyKnownParameters(parameters)) {
            return null;
        }
        String query = first(parameters, Protocol.QUERY_PARAM_NAME);
        HttpServletRequest request = http;
        if (method.equals("POST")) {
            String mimeType = mimeType(http.getContentType());
            if (SPARQL_QUERY.equals(mimeType)) {
                StringBuilder body = new StringBuilder();
                BufferedReader reader = http.getReader();
                char[] chunk = new char[8192];
                for (int n; (n = reader.read(chunk)) >= 0;) {
                    body.append(chunk, 0, n);
                }
                query = body.isEmpty() ? null : body.toString();
                request = new ReadAgain(http, body.toString());
                passOn[0] = request;
            } else if (!FORM.equals(mimeType)) {
                return null;
            }
        }
        return query == null ? null : new QueryRequest(id, query, request, parameters);
    }

    /**
     * Sets the request's dataset, inference, timeout and bindings on {@code query}, as RDF4J Server does; false
     * (and {@code query} to be dropped) if a value is one RDF4J Server refuses.
     */
    boolean applyTo(Query query, ValueFactory values) {
        query.setIncludeInferred(includeInferred());
        String timeout = first(parameters, Protocol.TIMEOUT_PARAM_NAME);
        if (timeout != null) {
            int seconds;
            try {
                seconds = Integer.parseInt(timeout);
            } catch (NumberFormatException e) {
                return false;
            }
            if (seconds > 0) {
                query.setMaxExecutionTime(seconds);
            }
        }
        List<String> defaultGraphs = parameters.getOrDefault(Protocol.DEFAULT_GRAPH_PARAM_NAME, List.of());
        List<String> namedGraphs = parameters.getOrDefault(Protocol.NAMED_GRAPH_PARAM_NAME, List.of());
        if (!defaultGraphs.isEmpty() || !namedGraphs.isEmpty()) {
            SimpleDataset dataset = new SimpleDataset();
            try {
                for (String g : defaultGraphs) {
                    dataset.addDefaultGraph(graph(g, values));
                }
                for (String g : namedGraphs) {
                    dataset.addNamedGraph(graph(g, values));
                }
            } catch (IllegalArgumentException e) {
                return false;
            }
            query.setDataset(dataset);
        }
        Map<String, Value> bindings = new LinkedHashMap<>();
        for (String name : parameters.keySet()) {
            if (name.startsWith(Protocol.BINDING_PREFIX)) {
                try {
                    bindings.put(name.substring(Protocol.BINDING_PREFIX.length()),
                            Protocol.decodeValue(first(parameters, name), values));
                } catch (IllegalArgumentException e) {
                    return false;
                }
            }
        }
        bindings.forEach(query::setBinding);
        return true;
    }

    /**
     * Whether the request sets nothing on the query but its inference ({@code infer}): no dataset, time limit or
     * bindings, so that its query may be answered without a prepared query ({@code QueryFront#select}).
     */
    boolean setsOnlyInference() {
        for (String name : parameters.keySet()) {
            if (!name.equals(Protocol.QUERY_PARAM_NAME) && !name.equals(Protocol.INCLUDE_INFERRED_PARAM_NAME)) {
                return false;
            }
        }
        return true;
    }

    /** The request's inference setting, as {@link #applyTo} sets it (true unless {@code infer} says otherwise). */
    boolean includeInferred() {
        String infer = first(parameters, Protocol.INCLUDE_INFERRED_PARAM_NAME);
        return infer == null || Boolean.parseBoolean(infer);
    }

    /** RDF4J Server's reading of a graph parameter: the string {@code null} is the default graph. */
    private static IRI graph(String iri, ValueFactory values) {
        return "null".equals(iri) ? null : values.createIRI(iri);
    }

    /** The repository a request addresses as {@code /repositories/ID}, or null for any other path. */
    static String repositoryId(HttpServletRequest http) {
        String path = http.getPathInfo();
        if (!REPOSITORIES.equals(http.getServletPath()) || path == null || path.length() < 2
                || path.indexOf('/', 1) >= 0) {
            return null;
        }
        return path.substring(1);
    }

    /**
     * The request as RDF4J Server's content negotiation is to read it: {@code getParameter} answers from the
     * parameters decoded here, so the servlet container does not decode a GET's query string (about a kilobyte of
     * {@code %XX} for a BSBM query) a second time to find that there is no {@code Accept} parameter.
     */
    HttpServletRequest forNegotiation() {
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getParameter(String name) {
                return first(parameters, name);
            }
        };
    }

    private static String first(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static boolean onlyKnownParameters(Map<String, List<String>> parameters) {
        for (String name : parameters.keySet()) {
            boolean known = name.equals(Protocol.QUERY_PARAM_NAME) || name.equals(Protocol.DEFAULT_GRAPH_PARAM_NAME)
                    || name.equals(Protocol.NAMED_GRAPH_PARAM_NAME) || name.equals(Protocol.INCLUDE_INFERRED_PARAM_NAME)
                    || name.equals(Protocol.TIMEOUT_PARAM_NAME)
                    || name.startsWith(Protocol.BINDING_PREFIX) && name.length() > Protocol.BINDING_PREFIX.length();
            if (!known) {
                return false;
            }
        }
        return true;
    }

    /** The MIME type of a Content-Type header, without its parameters, as RDF4J Server compares it. */
    static String mimeType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
    }

    /** A request whose body, already read as text, can be read again by RDF4J Server. */
    private static final class ReadAgain extends HttpServletRequestWrapper {
        private final String body;

        ReadAgain(HttpServletRequest request, String body) {
            super(request);
            this.body = body;
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new StringReader(body));
        }

        @Override
        public ServletInputStream getInputStream() {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
            ByteArrayInputStream bytes = new ByteArrayInputStream(body.getBytes(charset));
            return new ServletInputStream() {
                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already; no asynchronous reads");
                }
            };
        }
    }

    /**
     * A URL's query string ({@code application/x-www-form-urlencoded}: {@code +} for space, {@code %XX} bytes of
     * UTF-8) decoded into its parameters, name to values in order of appearance, for the common case only: null
     * for a query string with anything unusual (a character outside printable ASCII, a malformed escape, bytes that
     * are not UTF-8), which the servlet container is then to decode, with its own errors. A GET query's string is
     * about a kilobyte of escapes; Jetty decodes it a byte at a time through a UTF-8 state machine, which was a
     * tenth of a fast-path request's CPU (docs/benchmarks-server.md).
     */
    static Map<String, List<String>> parseQueryString(String query) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (query == null) {
            return parameters;
        }
        byte[] scratch = new byte[query.length()];
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            if (end > start) {
                int equals = query.indexOf('=', start);
                int nameEnd = equals < 0 || equals > end ? end : equals;
                String name = decode(query, start, nameEnd, scratch);
                String value = nameEnd == end ? "" : decode(query, nameEnd + 1, end, scratch);
                if (name == null || value == null) {
                    return null;
                }
                parameters.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        return parameters;
    }

    private static String decode(String s, int from, int to, byte[] scratch) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    return null;
                }
                int high = Character.digit(s.charAt(i + 1), 16);
                int low = Character.digit(s.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                scratch[n++] = (byte) (high << 4 | low);
                i += 2;
            } else if (c == '+') {
                scratch[n++] = ' ';
            } else if (c > 0x20 && c < 0x7F) {
                scratch[n++] = (byte) c;
            } else {
                return null;
            }
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(scratch, 0, n));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
