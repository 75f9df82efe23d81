package dev.basalt.sail.http;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import javax.management.JMException;
import javax.management.ObjectName;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.common.lang.service.FileFormatServiceRegistry;
import org.eclipse.rdf4j.http.protocol.Protocol;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.QueryResult;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterFactory;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterRegistry;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.manager.RepositoryManager;
import org.eclipse.rdf4j.rio.RDFWriterFactory;
import org.eclipse.rdf4j.rio.RDFWriterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.errors.FailureStatus;
import dev.basalt.sail.query.QueryFront;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * RDF4J Server's SPARQL query endpoint ({@code GET}/{@code POST /repositories/ID}) for its
 * {@link BasaltRepository} repositories without Spring MVC, RDF4J Server's interceptors and controllers, and,
 * for SPARQL/XML, SPARQL/JSON and CSV results, without RDF4J's result writers ({@link RowWriter} writes the
 * same bytes). A servlet filter in RDF4J Server's webapp, in front of its dispatcher servlet: it answers the
 * requests {@link Request} describes exactly as RDF4J Server 5.0.3 does (status, {@code Content-Type},
 * {@code Content-Disposition}, {@code Vary}, body; content negotiation is RDF4J Server's own
 * {@code ProtocolUtil.getAcceptableService}), and hands everything else to RDF4J Server unchanged: other
 * requests and repositories, and every request that fails before its result is evaluated (a malformed query, a
 * bad parameter, no acceptable format, an evaluation that fails at once), which RDF4J Server then answers with
 * its own error. A failure while the result is written is answered as RDF4J Server's result views answer it;
 * a client that leaves ends the query (the write fails, the result and connection are closed); the status and
 * message of such a failure are {@link FailureStatus#whileWritingResult}'s. A SELECT, CONSTRUCT or DESCRIBE that
 * sets nothing but its inference, of a shape whose plan is kept for the store's newest state, is answered by the
 * repository's query front door directly ({@link QueryFront#answer}: no connection is opened); every other query is
 * prepared and evaluated on a connection of the repository ({@link ConnectionRoute}).
 *
 * <p>With {@code -D}{@value SelectPort#PROPERTY}{@code =[HOST:]PORT} it also opens a {@link SelectPort} for the
 * server's Basalt repositories (a federation member's lean listener for its front's SELECTs), closed with
 * the filter.
 *
 * <p>Its counts are the MBean {@code dev.basalt:type=SparqlFastPath,context=PATH} ({@link SparqlFastPathMXBean}).
 * Off when the system property {@value #ENABLED_PROPERTY} is {@code false}, or when the webapp is not RDF4J
 * Server. Thread-safe: one instance serves all request threads; its state is set once, and the formats it
 * remembers per {@code Accept} header are in a concurrent map.
 */
public final class SparqlFastPath implements Filter, SparqlFastPathMXBean {
    /** {@code -Dbasalt.server.fastQueries=false} sends every request to RDF4J Server's own handling. */
    public static final String ENABLED_PROPERTY = "basalt.server.fastQueries";
    /** RDF4J Server's dispatcher servlet, whose Spring context holds the repository manager. */
    static final String SERVER_CONTEXT = "org.springframework.web.servlet.FrameworkServlet.CONTEXT.rdf4j-http-server";
    static final String MANAGER_BEAN = "rdf4jRepositoryManager";
    private static final String PROTOCOL_UTIL = "org.eclipse.rdf4j.http.server.ProtocolUtil";
    private static final Logger logger = LoggerFactory.getLogger(SparqlFastPath.class);

    private volatile ServletContext context;
    private volatile RepositoryManager manager;
    private volatile MethodHandle acceptableService;
    private volatile boolean enabled;
    private final LongAdder answered = new LongAdder();
    private final LongAdder passedOn = new LongAdder();
    private ObjectName name;
    private SelectPort selectPort;

    @Override
    public void init(FilterConfig config) {
        context = config.getServletContext();
        enabled = !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY));
        if (enabled) {
            try {
                Class<?> protocolUtil = Class.forName(PROTOCOL_UTIL, true, SparqlFastPath.class.getClassLoader());
                acceptableService = MethodHandles.publicLookup().findStatic(protocolUtil, "getAcceptableService",
                        MethodType.methodType(Object.class, HttpServletRequest.class, HttpServletResponse.class,
                                FileFormatServiceRegistry.class));
            } catch (ReflectiveOperationException | LinkageError e) {
                logger.warn("SPARQL fast path off: this webapp has no RDF4J Server protocol classes ({})", e.toString());
                enabled = false;
            }
        }
        String selectAddress = System.getProperty(SelectPort.PROPERTY);
        if (enabled && selectAddress != null && !selectAddress.isBlank()) {
            try {
                selectPort = SelectPort.start(selectAddress.trim(), this::basaltRepository);
            } catch (IOException e) {
                throw new IllegalStateException("the select port (-D" + SelectPort.PROPERTY + "=" + selectAddress
                        + ") did not open: " + e.getMessage(), e);
            }
        }
        try {
            name = new ObjectName("dev.basalt:type=SparqlFastPath,context="
                    + ObjectName.quote(context.getContextPath().isEmpty() ? "/" : context.getContextPath()));
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, name);
        } catch (JMException e) {
            logger.warn("SPARQL fast path's MBean not registered: {}", e.toString());
            name = null;
        }
    }

    @Override
    public void destroy() {
        if (selectPort != null) {
            selectPort.close();
            selectPort = null;
        }
        manager = null;
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                logger.debug("SPARQL fast path's MBean already gone", e);
            }
        }
    }

    @Override
    public long getAnswered() {
        return answered.sum();
    }

    @Override
    public long getPassedOn() {
        return passedOn.sum();
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!enabled || !(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse out)) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletRequest[] passOn = new HttpServletRequest[1];
        Request query;
        try {
            query = Request.of(http, passOn);
        } catch (RuntimeException e) {
            // a request the container cannot read (a form over its limit): RDF4J Server answers it, mapped
            chain.doFilter(passOn[0], response);
            passedOn.increment();
            return;
        }
        Repository repository = query == null ? null : basaltRepository(query.repositoryId());
        if (repository != null && answer(query, repository, out)) {
            answered.increment();
        } else {
            passedOn.increment();
            chain.doFilter(passOn[0], response);
        }
    }

    /** The repository if the server has it and it is a Basalt repository, else null. */
    private Repository basaltRepository(String id) {
        RepositoryManager m = manager();
        if (m == null) {
            return null;
        }
        try {
            Repository r = m.getRepository(id);
            return r instanceof BasaltRepository ? r : null;
        } catch (RuntimeException e) {
            return null; // RDF4J Server reports it
        }
    }

    private RepositoryManager manager() {
        RepositoryManager m = manager;
        if (m == null) {
            Object spring = context.getAttribute(SERVER_CONTEXT);
            if (spring == null) {
                return null; // not started yet
            }
            try {
                m = (RepositoryManager) spring.getClass().getMethod("getBean", String.class).invoke(spring, MANAGER_BEAN);
            } catch (ReflectiveOperationException | ClassCastException e) {
                logger.warn("SPARQL fast path off: RDF4J Server's context has no repository manager ({})", e.toString());
                enabled = false;
                return null;
            }
            manager = m;
        }
        return m;
    }

    /**
     * Answers the query; false, with nothing written, if RDF4J Server is to answer it (see the class comment).
     */
    private boolean answer(Request request, Repository repository, HttpServletResponse response)
            throws IOException {
        QueryFront front = request.setsOnlyInference() ? ((BasaltRepository) repository).front : null;
        QueryResult<?> kept = front == null ? null : front.answer(request.query(), request.includeInferred());
        if (kept instanceof TupleQueryResult tuples) {
            // the front door's direct route: a SELECT of a shape with a kept plan, no connection
            Object factory = negotiate(request, response, TupleQueryResultWriterRegistry.getInstance());
            if (factory == null) {
                close(kept);
                return false;
            }
            RowWriter.respond(request.request(), tuples, (TupleQueryResultWriterFactory) factory, response);
            return true;
        }
        if (kept instanceof GraphQueryResult graph) {
            // the same for a CONSTRUCT or DESCRIBE: its statements from the kept plan's rows
            Object factory = negotiate(request, response, RDFWriterRegistry.getInstance());
            if (factory == null) {
                close(kept);
                return false;
            }
            ConnectionRoute.writeGraph(request.request(), graph, (RDFWriterFactory) factory, response);
            return true;
        }
        return ConnectionRoute.answer(request, repository, response, this);
    }

    /**
     * RDF4J Server's choice of writer for the request's Accept header, or null if it finds none. Without an
     * {@code Accept} parameter the choice depends on the registry and the Accept header lines alone, so it is
     * remembered per registry and header text ({@link #negotiated}, at most {@value #MAX_NEGOTIATED}); a
     * remembered choice sets the {@code Vary} header as RDF4J Server's negotiation does.
     */
    Object negotiate(Request request, HttpServletResponse response, FileFormatServiceRegistry<?, ?> registry) {
        HttpServletRequest negotiation = request.forNegotiation();
        Negotiated key = negotiation.getParameter("Accept") == null
                ? new Negotiated(registry, Collections.list(negotiation.getHeaders("Accept")))
                : null;
        Object known = key == null ? null : negotiated.get(key);
        if (known != null) {
            response.setHeader("Vary", "Accept");
            return known;
        }
        Object chosen;
        try {
            chosen = acceptableService.invoke(negotiation, response, registry);
        } catch (Throwable e) {
            return null; // RDF4J Server answers 406 (or 400 for a bad Accept parameter) itself
        }
        if (key != null && chosen != null && negotiated.size() < MAX_NEGOTIATED) {
            negotiated.putIfAbsent(key, chosen);
        }
        return chosen;
    }

    /** A result registry and the Accept header lines of a request without an {@code Accept} parameter. */
    private record Negotiated(FileFormatServiceRegistry<?, ?> registry, List<String> accept) {
    }

    /** Distinct negotiations remembered; further ones are negotiated per request. */
    static final int MAX_NEGOTIATED = 256;
    private final Map<Negotiated, Object> negotiated = new ConcurrentHashMap<>();

    static void close(Object result) {
        if (result instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                logger.debug("closing an unused query result failed", e);
            }
        }
    }

    /**
     * A SPARQL query request to one repository of RDF4J Server (GET or POST to {@code /repositories/ID}) in the
     * form the fast path answers: the query as a parameter, a form body or a {@code application/sparql-query}
     * body, and no parameters but {@code query}, {@code default-graph-uri}, {@code named-graph-uri}, {@code infer},
     * {@code timeout} and {@code $name} bindings. Anything else ({@code HEAD}, {@code queryLn}, {@code baseURI},
     * {@code limit}, {@code offset}, {@code distinct}, {@code Accept} or {@code callback} parameters, other paths or
     * content types) is not one ({@link #of} answers null), and RDF4J Server answers it. A GET's query string is
     * decoded here where it can ({@link #parseQueryString}). {@code request} is the request to pass on when RDF4J
     * Server is to answer after all (its body can be read again), {@code parameters} are decoded as the servlet
     * container decodes them. An instance belongs to one request.
     */
    record Request(String repositoryId, String query, HttpServletRequest request, Map<String, List<String>> parameters) {
        static final String FORM = "application/x-www-form-urlencoded";
        static final String SPARQL_QUERY = "application/sparql-query";
        private static final String REPOSITORIES = "/repositories";

        /**
         * The query request {@code http} is, or null if it is none the fast path answers. Reads an
         * {@code application/sparql-query} body; the request in the answer (and in {@code passOn[0]}, for a null
         * answer) can read it again.
         */
        static Request of(HttpServletRequest http, HttpServletRequest[] passOn) throws IOException {
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
                    RereadableRequest read = RereadableRequest.of(http);
                    query = read.body().isEmpty() ? null : read.body();
                    request = read;
                    passOn[0] = request;
                } else if (!FORM.equals(mimeType)) {
                    return null;
                }
            }
            return query == null ? null : new Request(id, query, request, parameters);
        }

        /**
         * Whether the request sets nothing on the query but its inference ({@code infer}): no dataset, time limit or
         * bindings, so that its query may be answered without a prepared query ({@link QueryFront#select}).
         */
        boolean setsOnlyInference() {
            for (String name : parameters.keySet()) {
                if (!name.equals(Protocol.QUERY_PARAM_NAME) && !name.equals(Protocol.INCLUDE_INFERRED_PARAM_NAME)) {
                    return false;
                }
            }
            return true;
        }

        /** The request's inference setting, as RDF4J Server sets it (true unless {@code infer} says otherwise). */
        boolean includeInferred() {
            String infer = first(parameters, Protocol.INCLUDE_INFERRED_PARAM_NAME);
            return infer == null || Boolean.parseBoolean(infer);
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

        static String first(Map<String, List<String>> parameters, String name) {
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

        /** An ASCII hexadecimal digit's value, else -1 (unlike {@code Character.digit}, which takes any Unicode digit). */
        private static int hexDigit(char c) {
            return c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        }

        private static String decode(String s, int from, int to, byte[] scratch) {
            int n = 0;
            boolean ascii = true;
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c == '%') {
                    if (i + 2 >= to) {
                        return null;
                    }
                    int high = hexDigit(s.charAt(i + 1));
                    int low = hexDigit(s.charAt(i + 2));
                    if ((high | low) < 0) {
                        return null;
                    }
                    scratch[n++] = (byte) (high << 4 | low);
                    ascii &= high < 8;
                    i += 2;
                } else if (c == '+') {
                    scratch[n++] = ' ';
                } else if (c > 0x20 && c < 0x7F) {
                    scratch[n++] = (byte) c;
                } else {
                    return null;
                }
            }
            if (ascii) {
                return new String(scratch, 0, n, StandardCharsets.ISO_8859_1); // ASCII is its own UTF-8
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
}
