package dev.basalt.compliance.difftest;

import java.io.File;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategyFactory;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.SailRepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailTupleQuery;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * Runs random queries on one random dataset loaded once into Basalt (a {@link BasaltRepository},
 * native evaluation on) and into RDF4J's MemoryStore, and compares the answers: solution multisets,
 * or solution sequences for a query whose ORDER BY fixes the order. An error counts as agreement
 * only if both sides fail. Queries the parser rejects are drawn again; queries whose answer exceeds
 * {@value #MAX_ROWS} rows or whose evaluation runs past {@value #TIMEOUT_SECONDS} s on either side
 * are skipped and counted. Each query is parsed once for the check and for MemoryStore; Basalt
 * prepares it through its repository connection as an application would (its template cache).
 *
 * <p>Dataset {@code d} of seed {@code s} is generated from {@code new Random(s * 1_000_003 + d)}, and
 * its queries continue from the same generator, so {@code -Dbasalt.seed=s} reproduces a run and a
 * report names the seed, dataset and query number, whatever the number of worker threads.
 *
 * <p>Thread rules: {@link #run} keeps all its state on the calling thread's stack, so datasets may
 * run on several threads at once, each with its own directory; a {@link Tally} is not thread-safe.
 */
final class DifferentialRunner {
    static final int MAX_ROWS = 5_000;
    static final int TIMEOUT_SECONDS = 5;

    /** Figures of a run. */
    static final class Tally {
        long datasets;
        long triples;
        long compared;
        long agreedOnError;
        long skipped;
        long excluded;
        /** Disagreements explained by {@link Arbitration}, by category. */
        final java.util.TreeMap<String, Long> arbitrated = new java.util.TreeMap<>();
        long basaltNanos;
        long memoryNanos;
        /** The slowest queries, "nanos\ttext", for tuning the generator. */
        final java.util.TreeMap<Long, String> slowest = new java.util.TreeMap<>();
        final List<String> disagreements = new ArrayList<>();
        /** "dataset/query" of each disagreement, in the order of {@link #disagreements}. */
        final List<String> disagreementIds = new ArrayList<>();
        /** "dataset/query" of each skipped query: a baselined disagreement skipped under load is not fixed. */
        final List<String> skippedIds = new ArrayList<>();

        void slow(long nanos, String text) {
            slowest.put(nanos, text);
            if (slowest.size() > 5) {
                slowest.remove(slowest.firstKey());
            }
        }

        void add(Tally t) {
            datasets += t.datasets;
            triples += t.triples;
            compared += t.compared;
            agreedOnError += t.agreedOnError;
            skipped += t.skipped;
            excluded += t.excluded;
            t.arbitrated.forEach((k, v) -> arbitrated.merge(k, v, Long::sum));
            basaltNanos += t.basaltNanos;
            memoryNanos += t.memoryNanos;
            t.slowest.forEach(this::slow);
            disagreements.addAll(t.disagreements);
            disagreementIds.addAll(t.disagreementIds);
            skippedIds.addAll(t.skippedIds);
        }
    }

    private DifferentialRunner() {
    }

    static Tally run(long seed, int dataset, int queries, File dir) {
        return run(seed, dataset, queries, dir, null);
    }

    /**
     * Like {@link #run(long, int, int, File)}, with {@code hint} (a Basalt query hint pattern, or
     * null) put into each query Basalt runs, first in its outermost group; MemoryStore runs the
     * query as generated.
     */
    static Tally run(long seed, int dataset, int queries, File dir, String hint) {
        Random random = new Random(seed * 1_000_003L + dataset);
        List<Statement> data = new RandomData(random).dataset(50, 300);
        Tally tally = new Tally();
        tally.datasets = 1;
        tally.triples = data.size();
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        Repository basalt = new BasaltRepository(new BasaltStore(dir, config));
        SailRepository memory = new SailRepository(new MemoryStore());
        // made for a dataset's first disagreement: Jena's copy and MemoryStore without its optimizer pipeline
        SailRepository plain = null;
        try (RepositoryConnection b = basalt.getConnection(); SailRepositoryConnection m = memory.getConnection()) {
            b.add(data);
            m.add(data);
            RandomQueries generator = new RandomQueries(random);
            int only = Integer.getInteger("basalt.difftest.only", -1);
            JenaReference jena = null;
            SailRepositoryConnection p = null;
            for (int i = 0; i < queries; i++) {
                RandomQueries.Query q = generator.next();
                ParsedTupleQuery parsed = parse(q);
                while (parsed == null) {
                    // drawn again: both stores share RDF4J's parser, so a rejected query compares nothing
                    q = generator.next();
                    parsed = parse(q);
                }
                if (only >= 0 && i != only) {
                    continue;
                }
                long t0 = System.nanoTime();
                ParsedTupleQuery once = parsed;
                Answer expected = answer(() -> new SailTupleQuery(once, m) {
                }, q);
                long t1 = System.nanoTime();
                String text = hint == null ? q.text() : q.text().replaceFirst("\\{", "{ " + hint + " ");
                Answer actual = answer(() -> b.prepareTupleQuery(text), q);
                tally.memoryNanos += t1 - t0;
                long t2 = System.nanoTime();
                tally.basaltNanos += t2 - t1;
                tally.slow(t2 - t0, q.text());
                if (expected.skip() || actual.skip()) {
                    tally.skipped++;
                    tally.skippedIds.add(dataset + "/" + i);
                } else if (expected.error() != null && actual.error() != null) {
                    tally.agreedOnError++;
                } else if (expected.error() == null && actual.error() == null && expected.rows().equals(actual.rows())) {
                    tally.compared++;
                } else if (Exclusions.excluded(q.text(), expected, actual) != null) {
                    tally.excluded++;
                } else {
                    if (jena == null) {
                        jena = new JenaReference(data);
                        plain = unoptimizedMemoryStore();
                        p = plain.getConnection();
                        p.add(data);
                    }
                    Answer third = jena.answer(q.text(), q.ordered());
                    SailRepositoryConnection pc = p;
                    Answer unoptimized = answer(() -> new SailTupleQuery(once, pc) {
                    }, q);
                    Arbitration.Category explained = Arbitration.explain(q.text(), nodes(data),
                            new Arbitration.Answers(expected, actual, third, unoptimized));
                    if (explained != null) {
                        tally.arbitrated.merge(explained.id(), 1L, Long::sum);
                        continue;
                    }
                    tally.disagreements.add(report(seed, dataset, i, q, expected, actual) + "  Jena: "
                            + Arbitration.verdict(expected, actual, third) + "\n  MemoryStore without its optimizer pipeline: "
                            + Arbitration.verdict(expected, actual, unoptimized) + "\n");
                    tally.disagreementIds.add(dataset + "/" + i);
                    if (only >= 0) {
                        tally.disagreements.add("DATA\n" + String.join("\n", data.stream().map(Object::toString).toList())
                                + "\nMEMORY\n" + (expected.rows() == null ? "" : String.join("\n", expected.rows()))
                                + "\nBASALT\n" + (actual.rows() == null ? "" : String.join("\n", actual.rows())));
                    }
                }
            }
            if (p != null) {
                p.close();
            }
        } finally {
            basalt.shutDown();
            memory.shutDown();
            if (plain != null) {
                plain.shutDown();
            }
        }
        return tally;
    }

    /**
     * MemoryStore evaluating the query as parsed, with RDF4J's optimizer pipeline empty: evidence for
     * the arbitration where MemoryStore's optimizer changes an answer (its rewrites must not).
     */
    private static SailRepository unoptimizedMemoryStore() {
        MemoryStore store = new MemoryStore();
        DefaultEvaluationStrategyFactory factory = new DefaultEvaluationStrategyFactory();
        factory.setOptimizerPipeline(List::of);
        store.setEvaluationStrategyFactory(factory);
        return new SailRepository(store);
    }

    /** The subjects and objects of a dataset's statements, as {@link Answer} writes terms. */
    private static Set<String> nodes(List<Statement> data) {
        Set<String> nodes = new HashSet<>();
        for (Statement st : data) {
            nodes.add(Answer.term(st.getSubject()));
            nodes.add(Answer.term(st.getObject()));
        }
        return nodes;
    }

    /** The parsed query, or null if RDF4J's parser rejects it. */
    private static ParsedTupleQuery parse(RandomQueries.Query q) {
        try {
            return QueryParserUtil.parseTupleQuery(QueryLanguage.SPARQL, q.text(), null);
        } catch (MalformedQueryException e) {
            return null;
        }
    }

    private static Answer answer(Supplier<TupleQuery> prepare, RandomQueries.Query q) {
        try {
            TupleQuery query = prepare.get();
            query.setMaxExecutionTime(TIMEOUT_SECONDS);
            try (TupleQueryResult result = query.evaluate()) {
                Answer.Builder answer = new Answer.Builder(result.getBindingNames());
                for (BindingSet row : result) {
                    if (answer.size() == MAX_ROWS) {
                        return Answer.skipped();
                    }
                    answer.add(row);
                }
                return answer.build(q.ordered());
            }
        } catch (QueryInterruptedException e) {
            return Answer.skipped();
        } catch (RuntimeException | AssertionError e) {
            // AssertionError: RDF4J's evaluator checks internal assertions under the tests' -ea
            if (Integer.getInteger("basalt.difftest.only", -1) >= 0) {
                LoggerFactory.getLogger(DifferentialRunner.class).warn("query failed", e);
            }
            return Answer.failed(e);
        }
    }

    private static String report(long seed, int dataset, int query, RandomQueries.Query q, Answer expected, Answer actual) {
        StringBuilder s = new StringBuilder("-Dbasalt.seed=").append(seed).append(" dataset ").append(dataset)
                .append(" query ").append(query).append(q.ordered() ? " (ordered)" : "").append('\n').append(q.text())
                .append('\n');
        if (expected.error() != null || actual.error() != null) {
            s.append("  MemoryStore: ").append(expected.error() != null ? expected.error() : expected.rows().size() + " rows")
                    .append("\n  Basalt:      ").append(actual.error() != null ? actual.error() : actual.rows().size() + " rows")
                    .append('\n');
            return s.toString();
        }
        s.append("  MemoryStore ").append(expected.rows().size()).append(" rows, Basalt ").append(actual.rows().size())
                .append(" rows\n");
        TreeSet<String> onlyMemory = new TreeSet<>(expected.rows());
        onlyMemory.removeAll(actual.rows());
        TreeSet<String> onlyBasalt = new TreeSet<>(actual.rows());
        onlyBasalt.removeAll(expected.rows());
        onlyMemory.stream().limit(5).forEach(r -> s.append("  only MemoryStore: ").append(r).append('\n'));
        onlyBasalt.stream().limit(5).forEach(r -> s.append("  only Basalt:      ").append(r).append('\n'));
        if (onlyMemory.isEmpty() && onlyBasalt.isEmpty()) {
            s.append("  same rows, different ").append(q.ordered() ? "order" : "multiplicities").append('\n');
        }
        return s.toString();
    }
}
