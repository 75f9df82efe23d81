package dev.basalt.sail.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;

import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Cardinalities for RDF4J's join ordering from exact counts: a statement pattern with its
 * constants bound is a key range of a statement index, which the counted B+tree counts in
 * O(log n). Counts both statement sets of the newest commit point (pending changes of open
 * transactions are not seen; these are estimates for the optimizer, not answers).
 *
 * <p>Thread-safe: RDF4J's optimizer of any connection may ask at once; each count takes its own read
 * lease, and the count cache it is given must allow concurrent use.
 */
public final class BasaltEvaluationStatistics extends EvaluationStatistics {
    private final ReadSource reads;
    /** Counts already made, keyed by the pattern's ids; only for a source of one fixed state. */
    private final Map<CardinalityEstimator.Key, Double> counts;

    public BasaltEvaluationStatistics(ReadSource reads) {
        this(reads, null);
    }

    /** Statistics over one fixed state whose counts are kept in {@code counts} (shared by queries of that state). */
    public BasaltEvaluationStatistics(ReadSource reads, Map<CardinalityEstimator.Key, Double> counts) {
        this.reads = reads;
        this.counts = counts;
    }

    @Override
    protected CardinalityCalculator createCardinalityCalculator() {
        return new RangeCountCalculator();
    }

    private final class RangeCountCalculator extends CardinalityCalculator {
        @Override
        protected double getCardinality(StatementPattern sp) {
            Value s = constant(sp.getSubjectVar());
            Value p = constant(sp.getPredicateVar());
            Value o = constant(sp.getObjectVar());
            Value c = constant(sp.getContextVar());
            // a constant of the wrong kind (after an optimizer inlined a comparison) matches nothing useful
            if (s != null && !(s instanceof Resource) || p != null && !(p instanceof IRI)
                    || c != null && !(c instanceof Resource)) {
                return super.getCardinality(sp);
            }
            List<Value> bound = new ArrayList<>(4);
            for (Value v : new Value[] { s, p, o, c }) {
                bound.add(v);
            }
            try (ReadSource.Lease lease = reads.acquire()) {
                long[] pattern = new long[4];
                for (int i = 0; i < 4; i++) {
                    if (bound.get(i) != null) {
                        pattern[i] = lease.view().lexicon().lookup(bound.get(i));
                        if (pattern[i] == TermIds.NULL) {
                            return 0;
                        }
                    }
                }
                CardinalityEstimator.Key key = new CardinalityEstimator.Key(pattern[0], pattern[1], pattern[2],
                        pattern[3], 0);
                Double known = counts == null ? null : counts.get(key);
                if (known != null) {
                    return known;
                }
                long n = 0;
                for (StatementSet set : StatementSet.values()) {
                    QuadIndexes quads = lease.view().quads(set);
                    n += quads.count(countable(quads, pattern));
                }
                if (counts != null) {
                    counts.put(key, (double) n);
                }
                return n;
            }
        }

        /**
         * The pattern itself if some index counts it exactly, else the pattern without its context
         * (an upper bound, counted exactly by the s/p/o orders) so an estimate never scans.
         */
        private long[] countable(QuadIndexes quads, long[] pattern) {
            QuadOrder best = quads.orders().get(quads.bestOrder(pattern));
            if (best.boundPrefix(pattern) == QuadOrder.boundCount(pattern)) {
                return pattern;
            }
            long[] relaxed = pattern.clone();
            relaxed[QuadOrder.C] = TermIds.NULL;
            return relaxed;
        }

        private Value constant(Var var) {
            return var != null && var.hasValue() ? var.getValue() : null;
        }
    }
}
