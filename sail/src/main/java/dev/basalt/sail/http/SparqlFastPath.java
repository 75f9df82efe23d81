package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.charset.Charset;
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
import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.common.lang.FileFormat;
import org.eclipse.rdf4j.common.lang.service.FileFormatServiceRegistry;
import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResultHandlerException;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultWriterFactory;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultWriterRegistry;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterFactory;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterRegistry;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.manager.RepositoryManager;
import org.eclipse.rdf4j.rio.RDFHandlerException;
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
 * requests {@link QueryRequest} describes exactly as RDF4J Server 5.0.3 does (status, {@code Content-Type},
 * {@code Content-Disposition}, {@code Vary}, body; content negotiation is RDF4J Server's own
 * {@code ProtocolUtil.getAcceptableService}), and hands everything else to RDF4J Server unchanged: other
 * requests and repositories, and every request that fails before its result is evaluated (a malformed query, a
 * bad parameter, no acceptable format, an evaluation that fails at once), which RDF4J Server then answers with
 * its own error. A failure while the result is written is answered as RDF4J Server's result views answer it;
 * a client that leaves ends the query (the write fails, the result and connection are closed); the status and
 * message of such a failure are {@link FailureStatus#whileWritingResult}'s. A SELECT that sets nothing but its
 * inference, of a shape whose plan is kept for the store's newest state, is answered by the repository's query
 * front door directly ({@link QueryFront#select}: no connection is opened); every other query is prepared and
 * evaluated on a connection of the repository.
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
        QueryRequest query;
        try {
            query = QueryRequest.of(http, passOn);
        } catch (RuntimeException e) {
            // a request the container cannot read (a form over its limit): RDF4J Server answers it, mapped
            chain.doFilter(passOn[0], response);
            passedOn.increment();
            return;
        }
        Repository repository = query == null ? null : basaltRepository(query.repositoryId);
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
    private boolean answer(QueryRequest request, Repository repository, HttpServletResponse response)
            throws IOException {
        QueryFront front = request.setsOnlyInference() ? ((BasaltRepository) repository).front : null;
        TupleQueryResult kept = front == null ? null : front.select(request.query, request.includeInferred());
        if (kept != null) {
            // the front door's direct route: a SELECT of a shape with a kept plan, no connection
            Object factory = negotiate(request, response, TupleQueryResultWriterRegistry.getInstance());
            if (factory == null) {
                close(kept);
                return false;
            }
            writeTuples(request.request, kept, (TupleQueryResultWriterFactory) factory, response);
            return true;
        }
        RepositoryConnection connection;
        try {
            connection = repository.getConnection();
        } catch (RuntimeException e) {
            return false; // RDF4J Server reports it
        }
        try {
            Query query;
            Object result;
            FileFormatServiceRegistry<?, ?> registry;
            try {
                query = connection.prepareQuery(QueryLanguage.SPARQL, request.query, null);
                if (!request.applyTo(query, repository.getValueFactory())) {
                    return false;
                }
                if (query instanceof TupleQuery tuple) {
                    result = tuple.evaluate();
                    registry = TupleQueryResultWriterRegistry.getInstance();
                } else if (query instanceof GraphQuery graph) {
                    result = graph.evaluate();
                    registry = RDFWriterRegistry.getInstance();
                } else if (query instanceof BooleanQuery ask) {
                    result = ask.evaluate();
                    registry = BooleanQueryResultWriterRegistry.getInstance();
                } else {
                    return false;
                }
            } catch (RuntimeException | StackOverflowError e) {
                FailureStatus.Answer tooDeep = FailureStatus.ofQueryPreparation(e);
                if (tooDeep == null) {
                    return false; // RDF4J Server answers with its own error
                }
                // answered here: RDF4J Server would parse the query again and could overflow at another place
                response.setStatus(tooDeep.status());
                response.setContentType(tooDeep.contentType());
                byte[] body = tooDeep.message().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                response.setContentLength(body.length);
                response.getOutputStream().write(body);
                return true;
            }
            Object factory = negotiate(request, response, registry);
            if (factory == null) {
                close(result);
                return false;
            }
            if (result instanceof TupleQueryResult tuples) {
                writeTuples(request.request, tuples, (TupleQueryResultWriterFactory) factory, response);
            } else if (result instanceof GraphQueryResult graph) {
                writeGraph(request.request, graph, (RDFWriterFactory) factory, response);
            } else {
                writeBoolean(request.request, (Boolean) result, (BooleanQueryResultWriterFactory) factory, response);
            }
            return true;
        } finally {
            connection.close();
        }
    }

    /**
     * RDF4J Server's choice of writer for the request's Accept header, or null if it finds none. Without an
     * {@code Accept} parameter the choice depends on the registry and the Accept header lines alone, so it is
     * remembered per registry and header text ({@link #negotiated}, at most {@value #MAX_NEGOTIATED}); a
     * remembered choice sets the {@code Vary} header as RDF4J Server's negotiation does.
     */
    private Object negotiate(QueryRequest request, HttpServletResponse response, FileFormatServiceRegistry<?, ?> registry) {
        HttpServletRequest negotiation = request.forNegotiation();
        Negotiated key = negotiation.getParameter("Accept") == null
                ? new Negotiated(registry, java.util.Collections.list(negotiation.getHeaders("Accept")))
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
    private record Negotiated(FileFormatServiceRegistry<?, ?> registry, java.util.List<String> accept) {
    }

    /** Distinct negotiations remembered; further ones are negotiated per request. */
    static final int MAX_NEGOTIATED = 256;
    private final java.util.Map<Negotiated, Object> negotiated = new java.util.concurrent.ConcurrentHashMap<>();

    private static void close(Object result) {
        if (result instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                logger.debug("closing an unused query result failed", e);
            }
        }
    }

    private static void writeTuples(HttpServletRequest request, TupleQueryResult result, TupleQueryResultWriterFactory factory,
            HttpServletResponse response) throws IOException {
        head(request, response, factory.getTupleQueryResultFormat());
        try (TupleQueryResult rows = result; OutputStream out = response.getOutputStream()) {
            RowWriter writer = RowWriter.forFormat(factory.getTupleQueryResultFormat(), out);
            if (writer == null) {
                QueryResults.report(rows, factory.getWriter(out));
                return;
            }
            writer.start(rows.getBindingNames());
            while (rows.hasNext()) {
                writer.row(rows.next());
            }
            writer.end();
            writer.drain();
        } catch (QueryEvaluationException | QueryResultHandlerException e) {
            sendError(response, FailureStatus.whileWritingResult(e));
        }
    }

    private static void writeGraph(HttpServletRequest request, GraphQueryResult result, RDFWriterFactory factory, HttpServletResponse response)
            throws IOException {
        head(request, response, factory.getRDFFormat());
        try (GraphQueryResult statements = result; OutputStream out = response.getOutputStream()) {
            QueryResults.report(statements, factory.getWriter(out));
        } catch (QueryEvaluationException | RDFHandlerException e) {
            sendError(response, FailureStatus.whileWritingResult(e));
        }
    }

    private static void writeBoolean(HttpServletRequest request, boolean value, BooleanQueryResultWriterFactory factory,
            HttpServletResponse response) throws IOException {
        head(request, response, factory.getBooleanQueryResultFormat());
        try (OutputStream out = response.getOutputStream()) {
            factory.getWriter(out).handleBoolean(value);
        } catch (QueryResultHandlerException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e);
        }
    }

    /** Answers a failure while a result is written with the status and message {@link FailureStatus} gives it. */
    private static void sendError(HttpServletResponse response, FailureStatus.Answer answer) throws IOException {
        response.sendError(answer.status(), answer.message());
    }

    /** Status and headers as RDF4J Server's result views set them. */
    private static void head(HttpServletRequest request, HttpServletResponse response, FileFormat format) {
        response.setLocale(request.getLocale()); // Spring MVC's default locale resolution: Content-Language
        response.setStatus(HttpServletResponse.SC_OK);
        String mimeType = format.getDefaultMIMEType();
        Charset charset = format.hasCharset() ? format.getCharset() : null;
        response.setContentType(charset == null ? mimeType : mimeType + "; charset=" + charset.name());
        String extension = format.getDefaultFileExtension();
        response.setHeader("Content-Disposition",
                "attachment; filename=query-result" + (extension == null ? "" : "." + extension));
    }
}
