package dev.basalt.optimizer.rdf4j;

import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;

/**
 * The statistics RDF4J's join optimizer reads once Basalt's step has run ahead of it: a
 * {@link BasaltPlanNode} (a leaf RDF4J's calculator does not know) counts as its plan's estimated
 * rows, a statement pattern as the store's statistics count it, and the operators around them
 * combine those as RDF4J's calculator does.
 * Holds no state beyond the store's statistics it wraps; thread-safe as far as those are.
 */
final class PlanAwareStatistics extends EvaluationStatistics {
    private final EvaluationStatistics store;

    PlanAwareStatistics(EvaluationStatistics store) {
        this.store = store;
    }

    @Override
    public double getCardinality(TupleExpr expr) {
        return expr instanceof BasaltPlanNode plan ? plan.getResultSizeEstimate() : super.getCardinality(expr);
    }

    @Override
    protected CardinalityCalculator createCardinalityCalculator() {
        return new CardinalityCalculator() {
            @Override
            protected double getCardinality(StatementPattern sp) {
                return store.getCardinality(sp);
            }

            @Override
            public void meetOther(QueryModelNode node) {
                if (node instanceof BasaltPlanNode plan) {
                    cardinality = plan.getResultSizeEstimate();
                } else {
                    super.meetOther(node);
                }
            }
        };
    }
}
