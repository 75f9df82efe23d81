package dev.basalt.federation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

/**
 * Evaluates one query on a connection and serializes its whole answer into memory in the format
 * the client's Accept header asks for: SPARQL JSON (default), XML, CSV or TSV for SELECT and ASK
 * (an ASK answer in CSV or TSV is the header {@code _askResult} and one line {@code true} or
 * {@code false}), N-Triples (default), Turtle, RDF/XML, N-Quads or JSON-LD for CONSTRUCT and
 * DESCRIBE. The Accept header is read with its q-values; {@code *}{@code /*} and {@code type/*}
 * ranges match the first offered format of that range, and a type with {@code q=0} is never chosen.
 * Stateless: the front's request threads call it at once, each with its own connection and buffer.
 */
final class ResultWriter {
    /** ASK answers as CSV and TSV: RDF4J writes no such format, so the front writes them itself. */
    static final BooleanQueryResultFormat ASK_CSV = new BooleanQueryResultFormat("SPARQL/CSV", "text/csv",
            StandardCharsets.UTF_8, "csv");
    static final BooleanQueryResultFormat ASK_TSV = new BooleanQueryResultFormat("SPARQL/TSV",
            "text/tab-separated-values", StandardCharsets.UTF_8, "tsv");
    private static final List<TupleQueryResultFormat> TUPLE = List.of(TupleQueryResultFormat.JSON,
            TupleQueryResultFormat.SPARQL, TupleQueryResultFormat.CSV, TupleQueryResultFormat.TSV);
    private static final List<BooleanQueryResultFormat> BOOLEAN = List.of(BooleanQueryResultFormat.JSON,
            BooleanQueryResultFormat.SPARQL, BooleanQueryResultFormat.TEXT, ASK_CSV, ASK_TSV);
    private static final List<RDFFormat> GRAPH = List.of(RDFFormat.NTRIPLES, RDFFormat.TURTLE, RDFFormat.RDFXML,
            RDFFormat.NQUADS, RDFFormat.JSONLD);

    record Answer(String contentType, byte[] bytes) {
    }

    /** The client accepts none of the formats the front writes for this query form. */
    static final class NotAcceptable extends RuntimeException {
        NotAcceptable(String message) {
            super(message);
        }
    }

    /** The answer outgrew the front's buffer. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message);
        }
    }

    private ResultWriter() {
    }

    static Answer evaluate(RepositoryConnection connection, String queryText, String accept, long maxBytes) {
        Query query = connection.prepareQuery(QueryLanguage.SPARQL, queryText);
        SparqlFront.BoundedBuffer out = new SparqlFront.BoundedBuffer(maxBytes);
        List<String> wanted = acceptedTypes(accept);
        try {
            if (query instanceof TupleQuery tuple) {
                TupleQueryResultFormat format = pick(wanted, TUPLE, "SELECT");
                tuple.evaluate(QueryResultIO.createTupleWriter(format, out));
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
            if (query instanceof BooleanQuery ask) {
                BooleanQueryResultFormat format = pick(wanted, BOOLEAN, "ASK");
                boolean answer = ask.evaluate();
                if (format == ASK_CSV || format == ASK_TSV) {
                    out.writeBytes(("_askResult" + (format == ASK_CSV ? "\r\n" : "\n") + answer
                            + (format == ASK_CSV ? "\r\n" : "\n")).getBytes(StandardCharsets.UTF_8));
                } else {
                    QueryResultIO.createBooleanWriter(format, out).handleBoolean(answer);
                }
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
            if (query instanceof GraphQuery graph) {
                RDFFormat format = pick(wanted, GRAPH, "CONSTRUCT/DESCRIBE");
                graph.evaluate(Rio.createWriter(format, out));
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
        } catch (RuntimeException e) {
            Optional<TooLarge> tooLarge = causeOf(e, TooLarge.class);
            throw tooLarge.isPresent() ? tooLarge.get() : e;
        }
        throw new IllegalArgumentException("unsupported query form: " + query.getClass().getSimpleName());
    }

    /** The first format of {@code offered} that the client accepts, in the client's order of preference. */
    private static <F extends org.eclipse.rdf4j.common.lang.FileFormat> F pick(List<String> wanted, List<F> offered,
            String form) {
        for (String type : wanted) {
            if (type.equals("*/*")) {
                return offered.get(0);
            }
            for (F format : offered) {
                if (type.endsWith("/*") ? format.getDefaultMIMEType().startsWith(type.substring(0, type.length() - 1))
                        : format.hasMIMEType(type)) {
                    return format;
                }
            }
        }
        List<String> types = new ArrayList<>();
        offered.forEach(f -> types.add(f.getDefaultMIMEType()));
        throw new NotAcceptable("no acceptable format for a " + form + " answer in Accept: " + wanted
                + "; the front writes " + types);
    }

    /** Media types of an Accept header, most preferred first (q-values honoured, ties in header order). */
    static List<String> acceptedTypes(String accept) {
        if (accept == null || accept.isBlank()) {
            return List.of("*/*");
        }
        record Choice(String type, double q, int position) {
        }
        List<Choice> choices = new ArrayList<>();
        String[] parts = accept.split(",");
        for (int i = 0; i < parts.length; i++) {
            String[] pieces = parts[i].split(";");
            double q = 1.0;
            for (int p = 1; p < pieces.length; p++) {
                String param = pieces[p].trim();
                if (param.startsWith("q=")) {
                    try {
                        q = Double.parseDouble(param.substring(2));
                    } catch (NumberFormatException ignored) {
                        q = 0;
                    }
                }
            }
            if (q > 0) {
                choices.add(new Choice(pieces[0].trim().toLowerCase(Locale.ROOT), q, i));
            }
        }
        choices.sort(Comparator.comparingDouble((Choice c) -> -c.q()).thenComparingInt(Choice::position));
        return choices.stream().map(Choice::type).toList();
    }

    private static <T extends Throwable> Optional<T> causeOf(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }
}
