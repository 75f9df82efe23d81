package dev.basalt.optimizer.rdf4j;

import java.util.Set;
import org.eclipse.rdf4j.query.algebra.Exists;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.DescribeOperator;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryOptimizer;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.CompiledPlan;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.plan.PlanCompiler;
import dev.basalt.optimizer.plan.Subqueries;
import dev.basalt.optimizer.plan.ValueConditions;
import dev.basalt.optimizer.plan.ValueFunctions;

/**
 * The last step of RDF4J's optimizer pipeline on a Basalt store: top-down, every maximal subtree
 * the {@link PlanCompiler} supports is replaced by a {@link BasaltPlanNode}. A node it does not
 * support stays with RDF4J (counted in {@link NativeQueryStats} under its type) and its children,
 * including subqueries inside its expressions, are tried in turn.
 *
 * <p>DESCRIBE's {@link DescribeOperator} is not a fallback: it post-processes the described values
 * (the compiled WHERE part's results) into their concise bounded descriptions, which {@link NativeDescribe} reads
 * from the statement indices ({@link BasaltEvaluationStrategy} prepares it for the operator); it is counted apart
 * ({@link NativeQueryStats#postProcessed}).
 * Not thread-safe: made for one query evaluation (by its strategy) or one shape's compilation
 * ({@link ShapePlans}) and run in that thread.
 */
final class BasaltPlanOptimizer implements QueryOptimizer {
    private final QuadSource source;
    private final ValueConditions values;
    private final ValueFunctions functions;
    private final NativeQueryStats stats;
    private final CardinalityEstimator estimator;
    private final OrderingPolicy ordering;
    /** The evaluation's record for EXPLAIN, or null when it is not explained. */
    private QueryFallbacks record;

    /** {@code estimator} is shared by all the subtrees compiled for one query. */
    BasaltPlanOptimizer(QuadSource source, ValueConditions values, ValueFunctions functions, NativeQueryStats stats,
            CardinalityEstimator estimator, OrderingPolicy ordering) {
        this.source = source;
        this.values = values;
        this.functions = functions;
        this.stats = stats;
        this.estimator = estimator;
        this.ordering = ordering;
    }

    /** Also note each fallback node in {@code record} (for an explained evaluation). */
    void recordIn(QueryFallbacks record) {
        this.record = record;
    }

    @Override
    public void optimize(TupleExpr tupleExpr, Dataset dataset, BindingSet bindings) {
        replace(tupleExpr, dataset);
    }

    private void replace(TupleExpr node, Dataset dataset) {
        if (node instanceof DescribeOperator) {
            stats.postProcessed(node.getClass().getSimpleName());
        } else if (Subqueries.isSubquery(node) && Subqueries.optionalOnEmptyGroup(node) != null) {
            // RDF4J's own OPTIONAL must see this Projection to give its result (see Subqueries); its content is compiled
            fallback(node, "subquery in an OPTIONAL on the empty group");
        } else if (!(node instanceof QueryRoot)) {
            try {
                CompiledPlan plan = new PlanCompiler(source, values, functions, estimator, ordering, dataset)
                        .compileRoot(node, boundByFilter(node));
                node.replaceWith(new BasaltPlanNode(plan, node));
                stats.planCompiled();
                return;
            } catch (PlanCompiler.Unsupported u) {
                if (u.node() == node) {
                    fallback(node, u.getMessage());
                }
            }
        }
        if (node instanceof ArbitraryLengthPath || node instanceof ZeroLengthPath) {
            // a path Basalt did not compile: RDF4J's path operator renames and re-binds its step's variables per step, so the step stays with RDF4J too
            return;
        }
        for (TupleExpr child : tupleChildren(node)) {
            replace(child, dataset);
        }
    }

    /**
     * The variables every row binds that RDF4J's evaluator tests {@code node} against, when it is the
     * pattern of an EXISTS in a Filter's condition (the Filter argument's assured bindings); else none.
     */
    private static Set<String> boundByFilter(TupleExpr node) {
        if (!(node.getParentNode() instanceof Exists exists)) {
            return Set.of();
        }
        QueryModelNode at = exists.getParentNode();
        while (at instanceof ValueExpr) {
            at = at.getParentNode();
        }
        return at instanceof Filter f ? f.getArg().getAssuredBindingNames() : Set.of();
    }

    private void fallback(TupleExpr node, String reason) {
        stats.fallback(node.getClass().getSimpleName(), reason);
        if (record != null) {
            record.node(node, reason);
        }
    }

    /** The tuple expressions directly below a node, also those inside its value expressions. */
    private static List<TupleExpr> tupleChildren(QueryModelNode node) {
        List<TupleExpr> out = new ArrayList<>();
        node.visitChildren(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode n) {
                if (n instanceof TupleExpr t) {
                    out.add(t);
                } else {
                    n.visitChildren(this);
                }
            }
        });
        return out;
    }
}
