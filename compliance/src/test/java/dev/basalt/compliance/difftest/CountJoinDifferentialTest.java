package dev.basalt.compliance.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * {@code COUNT(*)} of random joins of two to five patterns over the differential tester's random
 * datasets ({@link RandomData}), on Basalt as planned and with hash and merge joins forced (query hint
 * {@code joins "hash-merge"}, which counts every join whose patterns form a tree per join key, the
 * {@code CountJoin} operator) against RDF4J's MemoryStore: the same count for every query. Most
 * generated joins are trees (each new pattern shares one variable with one earlier pattern); some
 * share a variable among three patterns or close a cycle, which are counted from rows. The forced
 * run must have counted per key in most queries, so the comparison covers the operator. Run it with
 * {@code -Dbasalt.exec.parallel=force} to have the planned joins it falls back to run in parallel.
 */
class CountJoinDifferentialTest {
    private static final int DATASETS = 6;
    private static final int QUERIES = 30;
    private static final String HINT = "[] <http://basalt.dev/hint#joins> \"hash-merge\" .";

    @TempDir
    File dir;

    @Test
    void countsOfRandomJoinsEqualMemoryStoresAsPlannedAndForced() {
        int counted = 0;
        int forced = 0;
        for (int d = 0; d < DATASETS; d++) {
            Random random = new Random(DifferentialQueryTest.DEFAULT_SEED * 31 + d);
            List<Statement> data = new RandomData(random).dataset(50, 300);
            BasaltStoreConfig config = new BasaltStoreConfig();
            config.setDurable(false);
            Repository basalt = new BasaltRepository(new BasaltStore(new File(dir, "d" + d), config));
            Repository memory = new SailRepository(new MemoryStore());
            try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
                b.add(data);
                m.add(data);
                for (int i = 0; i < QUERIES; i++) {
                    String where = join(random);
                    String query = RandomQueries.PROLOGUE + "SELECT (COUNT(*) AS ?n) WHERE {" + where + "}";
                    String expected = count(m.prepareTupleQuery(query));
                    assertEquals(expected, count(b.prepareTupleQuery(query)), "planned, dataset " + d + ": " + query);
                    String hinted = RandomQueries.PROLOGUE + "SELECT (COUNT(*) AS ?n) WHERE { " + HINT + where + "}";
                    TupleQuery q = b.prepareTupleQuery(hinted);
                    assertEquals(expected, count(q), "forced, dataset " + d + ": " + hinted);
                    forced++;
                    if (b.prepareTupleQuery(hinted).explain(Explanation.Level.Optimized).toString().contains("CountJoin")) {
                        counted++;
                    }
                }
            } finally {
                basalt.shutDown();
                memory.shutDown();
            }
        }
        assertTrue(counted > forced / 2, counted + " of " + forced + " forced queries counted per join key");
    }

    private static String count(TupleQuery q) {
        try (TupleQueryResult r = q.evaluate()) {
            Value n = r.next().getValue("n");
            return n == null ? null : n.stringValue();
        }
    }

    /**
     * Two to five patterns; each new one shares a variable with the patterns so far: one used once
     * (a tree) or, one time in five, any (a variable of three patterns, or a cycle).
     */
    private static String join(Random random) {
        int patterns = 2 + random.nextInt(4);
        Map<String, Integer> uses = new HashMap<>();
        List<String> vars = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        int fresh = 0;
        for (int i = 0; i < patterns; i++) {
            String shared;
            if (i == 0) {
                shared = "?v" + fresh++;
            } else {
                List<String> open = new ArrayList<>();
                for (String v : vars) {
                    if (uses.get(v) == 1 || random.nextInt(5) == 0) {
                        open.add(v);
                    }
                }
                shared = open.isEmpty() ? vars.get(random.nextInt(vars.size())) : open.get(random.nextInt(open.size()));
            }
            String other = random.nextInt(5) == 0 ? "ex:s" + random.nextInt(RandomData.SUBJECTS) : "?v" + fresh++;
            String predicate = random.nextInt(8) == 0 ? "?v" + fresh++ : "ex:p" + random.nextInt(RandomData.PREDICATES);
            boolean sharedSubject = random.nextBoolean();
            String s = sharedSubject ? shared : other;
            String o = sharedSubject ? other : shared;
            if (!s.startsWith("?") && !s.startsWith("ex:")) {
                s = shared;
            }
            out.append(' ').append(s).append(' ').append(predicate).append(' ').append(o).append(" .");
            for (String t : new String[] { s, predicate, o }) {
                if (t.startsWith("?")) {
                    if (!uses.containsKey(t)) {
                        vars.add(t);
                    }
                    uses.merge(t, 1, Integer::sum);
                }
            }
        }
        return out.toString();
    }
}
