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

    /** The answer outgrew the front's buffer, or a member's answer the rows the front holds (answered 413). */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message);
        }
    }

    private ResultWriter() {
    }

    /**
     * RDF4J's writer of {@code format}, Turtle without pretty printing: the pretty writer holds the
     * statements back to group and inline them, which cost the front more than evaluating a DESCRIBE did;
     * the plain one writes each statement as it comes (still grouping a subject's consecutive statements).
     */
    static org.eclipse.rdf4j.rio.RDFWriter rdfWriter(RDFFormat format, java.io.OutputStream out) {
        org.eclipse.rdf4j.rio.RDFWriter writer = Rio.createWriter(format, out);
        writer.getWriterConfig().set(org.eclipse.rdf4j.rio.helpers.BasicWriterSettings.PRETTY_PRINT, false);
        writer.getWriterConfig().set(org.eclipse.rdf4j.rio.helpers.BasicWriterSettings.INLINE_BLANK_NODES, false);
        return writer;
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
                writeBoolean(format, ask.evaluate(), out);
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
            if (query instanceof GraphQuery graph) {
                RDFFormat format = pick(wanted, GRAPH, "CONSTRUCT/DESCRIBE");
                graph.evaluate(new DistinctStatements(rdfWriter(format, out)));
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
        } catch (RuntimeException e) {
            Optional<TooLarge> tooLarge = causeOf(e, TooLarge.class);
            throw tooLarge.isPresent() ? tooLarge.get() : e;
        }
        throw new IllegalArgumentException("unsupported query form: " + query.getClass().getSimpleName());
    }

    /**
     * Writes the answer of a query evaluated by the front itself ({@link DirectEvaluation}): {@code rows}
     * are its solutions (for CONSTRUCT, the template's subject, predicate, object and context
     * bindings), closed here.
     */
    static Answer write(org.eclipse.rdf4j.query.parser.ParsedQuery query,
            org.eclipse.rdf4j.common.iteration.CloseableIteration<org.eclipse.rdf4j.query.BindingSet> rows, String accept,
            long maxBytes) {
        SparqlFront.BoundedBuffer out = new SparqlFront.BoundedBuffer(maxBytes);
        List<String> wanted = acceptedTypes(accept);
        try (rows) {
            if (query instanceof org.eclipse.rdf4j.query.parser.ParsedTupleQuery) {
                TupleQueryResultFormat format = pick(wanted, TUPLE, "SELECT");
                org.eclipse.rdf4j.query.resultio.TupleQueryResultWriter writer = QueryResultIO.createTupleWriter(format, out);
                writer.startQueryResult(new ArrayList<>(query.getTupleExpr().getBindingNames()));
                while (rows.hasNext()) {
                    writer.handleSolution(rows.next());
                }
                writer.endQueryResult();
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
            if (query instanceof org.eclipse.rdf4j.query.parser.ParsedBooleanQuery) {
                BooleanQueryResultFormat format = pick(wanted, BOOLEAN, "ASK");
                writeBoolean(format, rows.hasNext(), out);
                return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
            }
            if (query instanceof org.eclipse.rdf4j.query.parser.ParsedGraphQuery graph) {
                pick(wanted, GRAPH, "CONSTRUCT/DESCRIBE"); // refuse an unacceptable format before evaluating
                List<org.eclipse.rdf4j.model.Statement> statements = new ArrayList<>();
                while (rows.hasNext()) {
                    org.eclipse.rdf4j.model.Statement st = DirectEvaluation.statement(rows.next());
                    if (st != null) {
                        statements.add(st);
                    }
                }
                return write(graph, statements, accept, maxBytes);
            }
        } catch (RuntimeException e) {
            Optional<TooLarge> tooLarge = causeOf(e, TooLarge.class);
            throw tooLarge.isPresent() ? tooLarge.get() : e;
        }
        throw new IllegalArgumentException("unsupported query form: " + query.getClass().getSimpleName());
    }

    /**
     * Writes statements (a CONSTRUCT or DESCRIBE answered by the front, {@link DirectEvaluation},
     * {@link DirectDescribe}) in the client's format, each once.
     */
    static Answer write(org.eclipse.rdf4j.query.parser.ParsedGraphQuery query,
            List<org.eclipse.rdf4j.model.Statement> statements, String accept, long maxBytes) {
        RDFFormat format = pick(acceptedTypes(accept), GRAPH, "CONSTRUCT/DESCRIBE");
        SparqlFront.BoundedBuffer out = new SparqlFront.BoundedBuffer(maxBytes);
        org.eclipse.rdf4j.rio.RDFHandler writer = new DistinctStatements(rdfWriter(format, out));
        writer.startRDF();
        query.getQueryNamespaces().forEach(writer::handleNamespace);
        statements.forEach(writer::handleStatement);
        writer.endRDF();
        return new Answer(format.getDefaultMIMEType() + "; charset=UTF-8", out.toByteArray());
    }

    private static void writeBoolean(BooleanQueryResultFormat format, boolean answer, java.io.OutputStream out) {
        if (format == ASK_CSV || format == ASK_TSV) {
            try {
                out.write(("_askResult" + (format == ASK_CSV ? "\r\n" : "\n") + answer
                        + (format == ASK_CSV ? "\r\n" : "\n")).getBytes(StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        } else {
            QueryResultIO.createBooleanWriter(format, out).handleBoolean(answer);
        }
    }

    /**
     * The media type the answer to {@code query} is written in for this Accept header when a member
     * writes it (the same choice {@link #evaluate} makes), or null for an ASK answer in CSV or TSV, which
     * only the front writes. Throws {@link NotAcceptable} like {@link #evaluate}.
     */
    static String memberWrittenType(org.eclipse.rdf4j.query.parser.ParsedQuery query, String accept) {
        List<String> wanted = acceptedTypes(accept);
        if (query instanceof org.eclipse.rdf4j.query.parser.ParsedTupleQuery) {
            return pick(wanted, TUPLE, "SELECT").getDefaultMIMEType();
        }
        if (query instanceof org.eclipse.rdf4j.query.parser.ParsedBooleanQuery) {
            BooleanQueryResultFormat format = pick(wanted, BOOLEAN, "ASK");
            return format == ASK_CSV || format == ASK_TSV ? null : format.getDefaultMIMEType();
        }
        if (query instanceof org.eclipse.rdf4j.query.parser.ParsedGraphQuery) {
            return pick(wanted, GRAPH, "CONSTRUCT/DESCRIBE").getDefaultMIMEType();
        }
        return null;
    }

    /**
     * Passes each statement on once: a CONSTRUCT or DESCRIBE answer is a set of statements, and FedX
     * returns a statement once per member that holds it (a replicated subject is whole on every
     * member, so DESCRIBE of a reviewer repeated each of its statements once per member).
     */
    static final class DistinctStatements extends org.eclipse.rdf4j.rio.helpers.RDFHandlerWrapper {
        private final java.util.Set<org.eclipse.rdf4j.model.Statement> seen = new java.util.HashSet<>();

        DistinctStatements(org.eclipse.rdf4j.rio.RDFHandler out) {
            super(out);
        }

        @Override
        public void handleStatement(org.eclipse.rdf4j.model.Statement st) {
            if (seen.add(st)) {
                super.handleStatement(st);
            }
        }
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
        if (accept.indexOf(',') < 0 && accept.indexOf(';') < 0) {
            return List.of(accept.trim().toLowerCase(Locale.ROOT)); // one type, no parameters: nothing to sort
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

    static <T extends Throwable> Optional<T> causeOf(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }
}
