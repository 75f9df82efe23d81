package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.federated.evaluation.FederationEvalStrategy;
import org.eclipse.rdf4j.federated.evaluation.FederationEvaluationStrategyFactory;
import org.eclipse.rdf4j.federated.evaluation.SparqlFederationEvalStrategy;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * FedX's SPARQL evaluation strategy with one rewrite before FedX optimizes a query: a triple
 * pattern written twice in one basic graph pattern is dropped once. FedX 5.1.2 leaves the second
 * copy as a plain statement pattern that its strategy cannot evaluate ("Federation Strategy does not
 * support TripleSource#getStatements"); BSBM Explore Q1 and Q4 write the same pattern twice whenever
 * their two feature parameters are equal. Dropping it keeps the answer: a basic graph pattern is
 * matched as a set of patterns, and a graph holds each triple once, so a pattern joined with itself
 * on all its variables gives the same solutions.
 *
 * <p>Members are SPARQL endpoints, so the strategy is always FedX's SPARQL strategy. Stateless
 * besides FedX's own state; thread-safe as FedX's factory is.
 */
final class DuplicatePatternStrategyFactory extends FederationEvaluationStrategyFactory {

    @Override
    public FederationEvalStrategy createEvaluationStrategy(Dataset dataset, TripleSource tripleSource,
            EvaluationStatistics statistics) {
        return new SparqlFederationEvalStrategy(getFederationContext()) {
            @Override
            public TupleExpr optimize(TupleExpr expr, EvaluationStatistics stats, BindingSet bindings) {
                dropDuplicatePatterns(expr);
                return super.optimize(expr, stats, bindings);
            }
        };
    }

    /** Drops repeated statement patterns of each join tree (a basic graph pattern) in place. */
    static void dropDuplicatePatterns(TupleExpr expr) {
        List<Join> roots = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Join join) {
                if (!(join.getParentNode() instanceof Join)) {
                    roots.add(join);
                }
                super.meet(join);
            }
        });
        for (Join root : roots) {
            List<StatementPattern> leaves = new ArrayList<>();
            collectPatterns(root, leaves);
            Set<StatementPattern> seen = new HashSet<>();
            for (StatementPattern pattern : leaves) {
                if (!seen.add(pattern)) {
                    Join parent = (Join) pattern.getParentNode();
                    parent.replaceWith(parent.getLeftArg() == pattern ? parent.getRightArg() : parent.getLeftArg());
                }
            }
        }
    }

    private static void collectPatterns(TupleExpr node, List<StatementPattern> out) {
        if (node instanceof Join join) {
            collectPatterns(join.getLeftArg(), out);
            collectPatterns(join.getRightArg(), out);
        } else if (node instanceof StatementPattern pattern) {
            out.add(pattern);
        }
    }
}
