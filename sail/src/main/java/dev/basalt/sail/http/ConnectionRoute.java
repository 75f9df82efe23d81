package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.common.lang.service.FileFormatServiceRegistry;
import org.eclipse.rdf4j.http.protocol.Protocol;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
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
import org.eclipse.rdf4j.query.impl.SimpleDataset;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultWriterFactory;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultWriterRegistry;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterFactory;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterRegistry;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFWriterFactory;
import org.eclipse.rdf4j.rio.RDFWriterRegistry;

import dev.basalt.sail.errors.FailureStatus;

/**
 * The fast path's route for a query request its repository's front door does not answer directly (a query with a
 * dataset, bindings or a time limit, a shape without a kept plan for the newest state, a CONSTRUCT, DESCRIBE or
 * ASK): the query is prepared on a connection of the repository, the request's parameters are set on it as RDF4J
 * Server's {@code RepositoryController} sets them ({@link #applyTo}), it is evaluated, and its result is written
 * with the format {@link SparqlFastPath} negotiates, tuples by {@link RowWriter#respond}, graphs in RDF/XML by
 * {@link RdfXmlStatementWriter#respond}, other graph formats and booleans by RDF4J's writers. A request that fails
 * before its result is evaluated is left to RDF4J Server ({@link #answer} answers false), except a query nested too
 * deeply to prepare, answered here with {@link FailureStatus#ofQueryPreparation}'s status.
 *
 * <p>Thread rules: no state; each call serves one request in the thread that serves it, and closes the connection
 * it opened before it returns.
 */
final class ConnectionRoute {
    private ConnectionRoute() {
    }

    /**
     * Answers {@code request} through a connection of {@code repository}; false, with nothing written, if RDF4J
     * Server is to answer it. {@code fastPath} negotiates the result format.
     */
    static boolean answer(SparqlFastPath.Request request, Repository repository, HttpServletResponse response,
            SparqlFastPath fastPath) throws IOException {
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
                query = connection.prepareQuery(QueryLanguage.SPARQL, request.query(), null);
                if (!applyTo(request, query, repository.getValueFactory())) {
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
                byte[] body = tooDeep.message().getBytes(StandardCharsets.UTF_8);
                response.setContentLength(body.length);
                response.getOutputStream().write(body);
                return true;
            }
            Object factory = fastPath.negotiate(request, response, registry);
            if (factory == null) {
                SparqlFastPath.close(result);
                return false;
            }
            if (result instanceof TupleQueryResult tuples) {
                RowWriter.respond(request.request(), tuples, (TupleQueryResultWriterFactory) factory, response);
            } else if (result instanceof GraphQueryResult graph) {
                writeGraph(request.request(), graph, (RDFWriterFactory) factory, response);
            } else {
                writeBoolean(request.request(), (Boolean) result, (BooleanQueryResultWriterFactory) factory, response);
            }
            return true;
        } finally {
            connection.close();
        }
    }

    /**
     * Sets the request's dataset, inference, timeout and bindings on {@code query}, as RDF4J Server does; false
     * (and {@code query} to be dropped) if a value is one RDF4J Server refuses.
     */
    static boolean applyTo(SparqlFastPath.Request request, Query query, ValueFactory values) {
        Map<String, List<String>> parameters = request.parameters();
        query.setIncludeInferred(request.includeInferred());
        String timeout = SparqlFastPath.Request.first(parameters, Protocol.TIMEOUT_PARAM_NAME);
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
                            Protocol.decodeValue(SparqlFastPath.Request.first(parameters, name), values));
                } catch (IllegalArgumentException e) {
                    return false;
                }
            }
        }
        bindings.forEach(query::setBinding);
        return true;
    }

    /** RDF4J Server's reading of a graph parameter: the string {@code null} is the default graph. */
    private static IRI graph(String iri, ValueFactory values) {
        return "null".equals(iri) ? null : values.createIRI(iri);
    }

    /** Writes a graph result in {@code factory}'s format: RDF/XML by {@link RdfXmlStatementWriter}, others by RDF4J's. */
    static void writeGraph(HttpServletRequest request, GraphQueryResult result, RDFWriterFactory factory,
            HttpServletResponse response) throws IOException {
        if (RDFFormat.RDFXML.equals(factory.getRDFFormat())) {
            RdfXmlStatementWriter.respond(request, result, response);
            return;
        }
        RowWriter.head(request, response, factory.getRDFFormat());
        try (GraphQueryResult statements = result; OutputStream out = response.getOutputStream()) {
            QueryResults.report(statements, factory.getWriter(out));
        } catch (QueryEvaluationException | RDFHandlerException e) {
            RowWriter.sendError(response, FailureStatus.whileWritingResult(e));
        }
    }

    private static void writeBoolean(HttpServletRequest request, boolean value, BooleanQueryResultWriterFactory factory,
            HttpServletResponse response) throws IOException {
        RowWriter.head(request, response, factory.getBooleanQueryResultFormat());
        try (OutputStream out = response.getOutputStream()) {
            factory.getWriter(out).handleBoolean(value);
        } catch (QueryResultHandlerException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e);
        }
    }
}
