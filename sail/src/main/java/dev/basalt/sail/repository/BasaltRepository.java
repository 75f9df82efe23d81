package dev.basalt.sail.repository;

import java.io.File;
import java.io.CharConversionException;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.io.UnsupportedEncodingException;
import java.io.InputStream;
import java.io.Reader;
import java.net.URL;
import java.util.Objects;
import java.util.function.Supplier;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.TupleQueryResultHandler;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.ParsedBooleanQuery;
import org.eclipse.rdf4j.query.parser.ParsedGraphQuery;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.sail.SailBooleanQuery;
import org.eclipse.rdf4j.repository.sail.SailGraphQuery;
import org.eclipse.rdf4j.repository.sail.SailQuery;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.SailRepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailTupleQuery;
import org.eclipse.rdf4j.repository.util.RDFInserter;
import org.eclipse.rdf4j.repository.util.RDFLoader;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandler;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.StackableSail;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.errors.FailureStatus;
import dev.basalt.sail.query.QueryFront;
import dev.basalt.sail.query.PendingTree;
import dev.basalt.sail.query.ShapedQuery;

/**
 * A {@link SailRepository} whose connections take SPARQL queries through the repository's {@link QueryFront}: one
 * entry per query shape, so queries that differ only in their constants are parsed once and, over a Basalt store,
 * reuse the shape's RDF4J-optimized tree and compiled plan. Works over any sail (a Basalt store, or one wrapped
 * in an inferencer); everything else is {@code SailRepository}'s, except that over a Basalt store itself, adding
 * an N-Triples or N-Quads stream, file or {@code file:} URL runs the bulk loader's pipeline inside the
 * connection's transaction ({@link BulkAdds}). While initialized, the front door's counters are the MBean
 * {@code dev.basalt:type=QueryFront,repository="<the sail's data directory>"}. Over a Basalt store itself the front
 * door is bound to the store's native engine, so that the SPARQL fast path can answer a SELECT of a shape with a
 * kept plan through {@link QueryFront#select} without a connection.
 *
 * <p>Thread-safe like {@code SailRepository}: its connections may be used concurrently, and they share the
 * thread-safe {@link QueryFront}.
 */
public class BasaltRepository extends SailRepository {
    /** Query shapes kept by default. */
    public static final int DEFAULT_QUERY_SHAPES = QueryFront.DEFAULT_SHAPES;

    /**
     * The repository's query front door, or null when it keeps no shapes: a field, not a getter, because the SPARQL
     * fast path reads it on every query it answers (docs/sail.md, "The query path"). Set once; the front door is
     * thread-safe.
     */
    public final QueryFront front;
    /** Whether a Basalt store evaluates the queries (the only evaluator that reuses optimized stages). */
    private final boolean overBasalt;
    /** The sail is a Basalt store itself: nothing between reads a query's tree before the store does. */
    private final boolean unwrapped;

    public BasaltRepository(Sail sail) {
        this(sail, DEFAULT_QUERY_SHAPES);
    }

    /** @param queryShapes query shapes to keep; 0 parses every query */
    public BasaltRepository(Sail sail, int queryShapes) {
        this(sail, queryShapes, true);
    }

    /**
     * @param queryShapes query shapes to keep; 0 parses every query
     * @param shapePlans whether compiled plans are kept with the shapes (false compiles every query)
     */
    public BasaltRepository(Sail sail, int queryShapes, boolean shapePlans) {
        super(sail);
        this.front = queryShapes > 0 ? new QueryFront(queryShapes, shapePlans) : null;
        Sail base = sail;
        while (base instanceof StackableSail stacked && !(base instanceof BasaltStore)) {
            base = stacked.getBaseSail();
        }
        this.overBasalt = base instanceof BasaltStore;
        this.unwrapped = sail instanceof BasaltStore;
    }

    @Override
    protected void initializeInternal() throws RepositoryException {
        super.initializeInternal();
        if (front != null) {
            File dir = getSail().getDataDir();
            front.register(dir != null ? dir.getAbsolutePath() : "@" + Integer.toHexString(System.identityHashCode(this)));
            if (unwrapped) {
                front.bind(((BasaltStore) getSail()).nativeQueries());
            }
        }
    }

    @Override
    protected void shutDownInternal() throws RepositoryException {
        if (front != null) {
            front.bind(null); // before the store shuts down
        }
        try {
            super.shutDownInternal();
        } finally {
            if (front != null) {
                front.unregister();
            }
        }
    }

    @Override
    public SailRepositoryConnection getConnection() throws RepositoryException {
        if (!isInitialized()) {
            init();
        }
        try {
            return new Connection(this, getSail().getConnection(), front);
        } catch (SailException e) {
            throw new RepositoryException(e);
        }
    }

    private static final class Connection extends SailRepositoryConnection {
        private final BasaltRepository repository;
        private final QueryFront front;

        Connection(BasaltRepository repository, SailConnection connection, QueryFront front) {
            super(repository, connection);
            this.repository = repository;
            this.front = front;
        }

        /** The bulk path for this add (RDF4J's own where it does not apply). */
        private BulkAdds bulk() {
            return BulkAdds.of(repository, getSailConnection(), getParserConfig());
        }

        /** The guard of the RDF4J parser's add in progress, else null. */
        private StuckParserGuard guard;

        /**
         * Adds a stream, as {@code SailRepositoryConnection} does (or through the bulk loader), except that
         * a parser's failure on malformed input is always an {@link RDFParseException} and RDF4J's parser
         * runs under a {@link StuckParserGuard} (see {@link #guarded}).
         */
        @Override
        public void add(InputStream in, String baseURI, RDFFormat dataFormat, Resource... contexts)
                throws IOException, RDFParseException, RepositoryException {
            guarded(dataFormat, () -> bulk().add(in, baseURI, dataFormat, contexts, transactions,
                    stream -> load(dataFormat, contexts, (loader, inserter) -> loader.load(stream, baseURI, dataFormat, inserter))));
        }

        @Override
        public void add(Reader reader, String baseURI, RDFFormat dataFormat, Resource... contexts)
                throws IOException, RDFParseException, RepositoryException {
            guarded(dataFormat, () -> load(dataFormat, contexts,
                    (loader, inserter) -> loader.load(reader, baseURI, dataFormat, inserter)));
        }

        @Override
        public void add(File file, String baseURI, RDFFormat dataFormat, Resource... contexts)
                throws IOException, RDFParseException, RepositoryException {
            RDFFormat named = dataFormat != null ? dataFormat : Rio.getParserFormatForFileName(file.getName()).orElse(null);
            guarded(named, () -> bulk().add(file, baseURI, dataFormat, contexts, transactions, () -> load(named, contexts,
                    (loader, inserter) -> loader.load(file, baseURI, dataFormat, inserter))));
        }

        @Override
        public void add(URL url, String baseURI, RDFFormat dataFormat, Resource... contexts)
                throws IOException, RDFParseException, RepositoryException {
            guarded(dataFormat, () -> bulk().add(url, baseURI, dataFormat, contexts, transactions, () -> load(dataFormat,
                    contexts, (loader, inserter) -> loader.load(url, baseURI, dataFormat, inserter))));
        }

        /** One of RDF4J's loader calls, feeding the inserter. */
        private interface Load {
            void run(RDFLoader loader, RDFInserter inserter) throws IOException;
        }

        /** An add of parsed data, with the parse-failure mapping of {@link #guarded}. */
        private interface Add {
            void run() throws IOException;
        }

        /**
         * Runs an add so that a parser's failure on malformed input is always an {@link RDFParseException}:
         * RDF4J 5.0.3's parsers fail on some inputs with the unchecked exception of whatever read went wrong,
         * or an {@code EOFException} for a stream that ends early. RDF4J Server answers an RDFParseException
         * with 400 and anything else with 500. A failure of the store is raised through the handler as a
         * {@link RepositoryException} (or a SAIL or handler exception) and passes unchanged.
         */
        private void guarded(RDFFormat format, Add add) throws IOException {
            try {
                add.run();
            } catch (EOFException | CharConversionException | UTFDataFormatException | UnsupportedEncodingException e) {
                throw FailureStatus.malformedUpload(format, e);
            } catch (StuckParserGuard.Stuck e) {
                throw e.parseError();
            } catch (RuntimeException e) {
                if (e instanceof RDFParseException || FailureStatus.fromStore(e)) {
                    throw e;
                }
                throw FailureStatus.malformedUpload(format, e);
            }
        }

        /**
         * Parses with RDF4J's loader into this connection, in its transaction or a local one, as
         * {@code AbstractRepositoryConnection}'s adds do, with the parser under a {@link StuckParserGuard}: one
         * that reports statements without reading on is stopped and the local transaction rolled back.
         */
        private void load(RDFFormat format, Resource[] contexts, Load load) throws IOException {
            Objects.requireNonNull(contexts, "contexts may not be null; give an empty array for no contexts");
            RDFInserter inserter = new RDFInserter(this);
            inserter.enforceContext(contexts);
            guard = new StuckParserGuard(format);
            boolean local = startLocalTransaction();
            try {
                load.run(guard.loader(getParserConfig(), getValueFactory()), inserter);
                conditionalCommit(local);
            } catch (RDFHandlerException e) {
                conditionalRollback(local);
                if (e.getCause() instanceof RepositoryException stored) {
                    throw stored;
                }
                throw new RepositoryException(e);
            } catch (IOException | RuntimeException | Error e) {
                conditionalRollback(local);
                throw e;
            } finally {
                guard = null;
            }
        }

        @Override
        protected void addWithoutCommit(Resource subject, IRI predicate, Value object, Resource... contexts)
                throws RepositoryException {
            if (guard != null) {
                guard.statement();
            }
            super.addWithoutCommit(subject, predicate, object, contexts);
        }

        /** This connection's local-transaction handling, for {@link BulkAdds}. */
        private final BulkAdds.Transactions transactions = new BulkAdds.Transactions() {
            @Override
            public boolean startLocal() {
                return startLocalTransaction();
            }

            @Override
            public void commitLocal(boolean local) {
                conditionalCommit(local);
            }

            @Override
            public void rollbackLocal(boolean local) {
                conditionalRollback(local);
            }
        };

        @Override
        public SailQuery prepareQuery(QueryLanguage ql, String query, String baseURI) throws MalformedQueryException {
            if (front == null) {
                return super.prepareQuery(ql, query, baseURI);
            }
            QueryFront.Prepared prepared = front.prepare(ql, query, baseURI, repository.unwrapped);
            ParsedQuery parsed = prepared.query();
            // a pending tree carries its preparation itself (PendingTree)
            PreparedAlgebra algebra = repository.overBasalt && !(parsed.getTupleExpr() instanceof PendingTree)
                    ? prepared.algebra()
                    : null;
            if (parsed instanceof ParsedTupleQuery tuple) {
                return algebra == null ? new SailTupleQuery(tuple, this) : new SailTupleQuery(tuple, this) {
                    @Override
                    public TupleQueryResult evaluate() {
                        return shaped(getParsedQuery(), algebra, super::evaluate);
                    }

                    @Override
                    public void evaluate(TupleQueryResultHandler handler) {
                        shaped(getParsedQuery(), algebra, () -> {
                            super.evaluate(handler);
                            return null;
                        });
                    }
                };
            } else if (parsed instanceof ParsedGraphQuery graph) {
                return algebra == null ? new SailGraphQuery(graph, this) {
                } : new SailGraphQuery(graph, this) {
                    @Override
                    public GraphQueryResult evaluate() {
                        return shaped(getParsedQuery(), algebra, super::evaluate);
                    }

                    @Override
                    public void evaluate(RDFHandler handler) {
                        shaped(getParsedQuery(), algebra, () -> {
                            super.evaluate(handler);
                            return null;
                        });
                    }
                };
            } else if (parsed instanceof ParsedBooleanQuery bool) {
                return algebra == null ? new SailBooleanQuery(bool, this) {
                } : new SailBooleanQuery(bool, this) {
                    @Override
                    public boolean evaluate() {
                        return shaped(getParsedQuery(), algebra, super::evaluate);
                    }
                };
            }
            throw new MalformedQueryException("not a query: " + parsed.getClass().getSimpleName());
        }

        /**
         * Runs RDF4J's evaluation of a query with its tree handed to the sail as a {@link ShapedQuery}, so the
         * store's connection gets what the front door prepared with the tree itself; the parsed query is as
         * before when it returns.
         */
        private static <T> T shaped(ParsedQuery parsed, PreparedAlgebra algebra, Supplier<T> evaluation) {
            TupleExpr tree = parsed.getTupleExpr();
            parsed.setTupleExpr(new ShapedQuery(tree, algebra));
            try {
                return evaluation.get();
            } finally {
                parsed.setTupleExpr(tree);
            }
        }

        @Override
        public SailTupleQuery prepareTupleQuery(QueryLanguage ql, String query, String baseURI)
                throws MalformedQueryException {
            if (front == null) {
                return super.prepareTupleQuery(ql, query, baseURI);
            }
            return (SailTupleQuery) prepare(ql, query, baseURI, SailTupleQuery.class, "tuple");
        }

        @Override
        public SailGraphQuery prepareGraphQuery(QueryLanguage ql, String query, String baseURI)
                throws MalformedQueryException {
            if (front == null) {
                return super.prepareGraphQuery(ql, query, baseURI);
            }
            return (SailGraphQuery) prepare(ql, query, baseURI, SailGraphQuery.class, "graph");
        }

        @Override
        public SailBooleanQuery prepareBooleanQuery(QueryLanguage ql, String query, String baseURI)
                throws MalformedQueryException {
            if (front == null) {
                return super.prepareBooleanQuery(ql, query, baseURI);
            }
            return (SailBooleanQuery) prepare(ql, query, baseURI, SailBooleanQuery.class, "boolean");
        }

        private SailQuery prepare(QueryLanguage ql, String query, String baseURI, Class<? extends SailQuery> kind,
                String what) throws MalformedQueryException {
            SailQuery prepared = prepareQuery(ql, query, baseURI);
            if (!kind.isInstance(prepared)) {
                throw new MalformedQueryException("not a " + what + " query: " + query);
            }
            return prepared;
        }
    }
}
