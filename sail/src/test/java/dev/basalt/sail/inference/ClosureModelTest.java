package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.InferenceMode;

/**
 * Randomized model test of closure maintenance: transactions add and remove data and schema
 * statements (in the default graph and a named one, at SNAPSHOT_READ and NONE, some rolled back,
 * some clearing a graph), and after every commit the stored closure must equal the closure
 * {@link NaiveClosure} computes from scratch from the explicit statements, with no inferred
 * statement duplicating an explicit one. The store is reopened from time to time.
 */
class ClosureModelTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String NS = "urn:t:";

    @TempDir
    File dir;

    @Test
    void owlRlClosureStaysEqualToRecomputation() {
        run(InferenceMode.OWL_RL, 400, 11);
    }

    @Test
    void rdfsClosureStaysEqualToRecomputation() {
        run(InferenceMode.RDFS, 250, 12);
    }

    @Test
    @Tag("long")
    void longRandomizedRun() {
        run(InferenceMode.OWL_RL, 5000, 13);
    }

    private static IRI iri(String local) {
        return VF.createIRI(NS + local);
    }

    /** Candidate statements: schema axioms of every kind the rules read, and data over a few individuals. */
    static List<Statement> pool(Random r) {
        List<Statement> pool = new ArrayList<>();
        IRI[] c = new IRI[6], p = new IRI[5], x = new IRI[8];
        for (int i = 0; i < c.length; i++) {
            c[i] = iri("C" + i);
        }
        for (int i = 0; i < p.length; i++) {
            p[i] = iri("P" + i);
        }
        for (int i = 0; i < x.length; i++) {
            x[i] = iri("I" + i);
        }
        IRI[] restriction = { iri("R0"), iri("R1"), iri("R2") };
        for (int i = 0; i < 6; i++) {
            pool.add(st(c[r.nextInt(6)], RDFS.SUBCLASSOF, c[r.nextInt(6)]));
            pool.add(st(p[r.nextInt(5)], RDFS.SUBPROPERTYOF, p[r.nextInt(5)]));
        }
        for (int i = 0; i < 3; i++) {
            pool.add(st(p[r.nextInt(5)], RDFS.DOMAIN, c[r.nextInt(6)]));
            pool.add(st(p[r.nextInt(5)], RDFS.RANGE, c[r.nextInt(6)]));
        }
        pool.add(st(p[0], RDF.TYPE, OWL.TRANSITIVEPROPERTY));
        pool.add(st(p[3], RDF.TYPE, OWL.TRANSITIVEPROPERTY));
        pool.add(st(p[1], RDF.TYPE, OWL.SYMMETRICPROPERTY));
        pool.add(st(p[2], OWL.INVERSEOF, p[4]));
        pool.add(st(c[2], OWL.EQUIVALENTCLASS, c[3]));
        pool.add(st(p[3], OWL.EQUIVALENTPROPERTY, p[4]));
        pool.add(st(restriction[0], OWL.SOMEVALUESFROM, c[1]));
        pool.add(st(restriction[1], OWL.HASVALUE, x[0]));
        pool.add(st(restriction[2], OWL.SOMEVALUESFROM, OWL.THING));
        pool.add(st(c[5], OWL.INTERSECTIONOF, iri("L0")));
        pool.add(st(c[4], RDFS.SUBCLASSOF, restriction[1]));
        IRI[] members = { VF.createIRI(RDF.NAMESPACE, "_1"),
                VF.createIRI(RDF.NAMESPACE, "_2"), VF.createIRI(RDF.NAMESPACE, "_10"), VF.createIRI(RDF.NAMESPACE, "_01") };
        pool.add(st(p[4], RDFS.SUBPROPERTYOF, members[1]));
        for (int i = 0; i < 4; i++) {
            pool.add(st(x[r.nextInt(8)], members[r.nextInt(members.length)], r.nextBoolean() ? x[r.nextInt(8)]
                    : VF.createLiteral("m" + r.nextInt(2))));
        }
        for (int i = 0; i < 40; i++) {
            IRI s = x[r.nextInt(8)];
            switch (r.nextInt(4)) {
            case 0 -> pool.add(st(s, RDF.TYPE, r.nextInt(4) == 0 ? restriction[r.nextInt(3)] : c[r.nextInt(6)]));
            case 1 -> pool.add(st(s, p[r.nextInt(5)], VF.createLiteral("v" + r.nextInt(3))));
            default -> pool.add(st(s, p[r.nextInt(5)], x[r.nextInt(8)]));
            }
        }
        return pool;
    }

    /** Statements present from the start: the restrictions' properties and the intersection's list. */
    static List<Statement> fixed() {
        return List.of(st(iri("R0"), OWL.ONPROPERTY, iri("P0")), st(iri("R1"), OWL.ONPROPERTY, iri("P1")),
                st(iri("R2"), OWL.ONPROPERTY, iri("P2")), st(iri("L0"), RDF.FIRST, iri("C0")),
                st(iri("L0"), RDF.REST, iri("L1")), st(iri("L1"), RDF.FIRST, iri("R0")),
                st(iri("L1"), RDF.REST, RDF.NIL));
    }

    private static Statement st(Resource s, IRI p, Value o) {
        return VF.createStatement(s, p, o);
    }

    private void run(InferenceMode mode, int transactions, long seed) {
        Random r = new Random(seed);
        List<Statement> pool = pool(r);
        SailRepository repo = InferenceRepos.open(dir, mode);
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(fixed());
                for (int i = 0; i < 25; i++) {
                    c.add(pool.get(r.nextInt(pool.size())));
                }
            }
            check(repo, mode, -1);
            for (int t = 0; t < transactions; t++) {
                randomTransaction(repo, pool, r, mode);
                check(repo, mode, t);
                if (t % 97 == 96) {
                    repo.shutDown();
                    repo = InferenceRepos.open(dir, mode);
                    check(repo, mode, t);
                }
            }
        } finally {
            repo.shutDown();
        }
        assertTrue(inferredSeen > 5L * transactions, "too few inferred statements to test anything: " + inferredSeen);
    }


    private static final IsolationLevels[] ISOLATED = { IsolationLevels.READ_COMMITTED, IsolationLevels.SNAPSHOT_READ,
            IsolationLevels.SNAPSHOT, IsolationLevels.SERIALIZABLE };

    /**
     * One random transaction over the pool: additions, removals, a clear of the named graph;
     * committed or rolled back. An isolated transaction checks now and then, and before it ends,
     * that it sees the closure of its own explicit statements.
     */
    static void randomTransaction(SailRepository repo, List<Statement> pool, Random r, InferenceMode mode) {
        IRI graph = iri("g");
        try (RepositoryConnection c = repo.getConnection()) {
            IsolationLevels level = r.nextInt(5) == 0 ? IsolationLevels.NONE : ISOLATED[r.nextInt(ISOLATED.length)];
            c.begin(level);
            boolean isolated = level != IsolationLevels.NONE;
            int ops = 1 + r.nextInt(4);
            for (int k = 0; k < ops; k++) {
                int what = r.nextInt(20);
                if (what < 12) {
                    Statement s = pool.get(r.nextInt(pool.size()));
                    if (r.nextInt(4) == 0) {
                        c.add(s, graph);
                    } else {
                        c.add(s);
                    }
                } else if (what < 19) {
                    List<Statement> present = c.getStatements(null, null, null, false).stream()
                            .filter(s -> !fixed().contains(st(s.getSubject(), s.getPredicate(), s.getObject())))
                            .toList();
                    if (!present.isEmpty()) {
                        Statement s = present.get(r.nextInt(present.size()));
                        c.remove(s.getSubject(), s.getPredicate(), s.getObject(), s.getContext());
                    }
                } else {
                    c.clear(graph);
                }
                if (isolated && mode != null && r.nextInt(3) == 0) {
                    checkClosure(c, mode, "inside a transaction at " + level);
                }
            }
            if (isolated && mode != null) {
                checkClosure(c, mode, "before the end of a transaction at " + level);
            }
            if (r.nextInt(10) == 0 && isolated) {
                c.rollback();
            } else {
                c.commit();
            }
        }
    }

    /** Inferred statements seen over all checks, so the test shows it exercised the rules. */
    private long inferredSeen;

    private void check(SailRepository repo, InferenceMode mode, int transaction) {
        inferredSeen += checkClosure(repo, mode, "after transaction " + transaction);
    }

    /**
     * Fails unless the stored closure equals the one computed from scratch from the explicit
     * statements and no inferred statement repeats an explicit one; returns the inferred count.
     */
    static long checkClosure(SailRepository repo, InferenceMode mode, String when) {
        try (RepositoryConnection c = repo.getConnection()) {
            return checkClosure(c, mode, when);
        }
    }

    /** {@link #checkClosure(SailRepository, InferenceMode, String)} as connection {@code c} sees the store. */
    static long checkClosure(RepositoryConnection c, InferenceMode mode, String when) {
        List<Statement> explicit = c.getStatements(null, null, null, false).stream().toList();
        List<Statement> all = c.getStatements(null, null, null, true).stream().toList();
        Set<NaiveClosure.T> explicitTriples = NaiveClosure.triples(explicit);
        Set<NaiveClosure.T> expected = NaiveClosure.of(explicitTriples, mode == InferenceMode.OWL_RL);
        Set<NaiveClosure.T> stored = NaiveClosure.triples(all);
        if (!expected.equals(stored)) {
            Set<NaiveClosure.T> missing = new HashSet<>(expected);
            missing.removeAll(stored);
            Set<NaiveClosure.T> extra = new HashSet<>(stored);
            extra.removeAll(expected);
            throw new AssertionError(when + " the stored closure differs: missing "
                    + missing + ", extra " + extra + "; explicit " + explicitTriples);
        }
        assertEquals(explicit.size() + (expected.size() - explicitTriples.size()), all.size(),
                when + ": inferred statements must be exactly the closure minus the explicit triples");
        return all.size() - explicit.size();
    }
}
