package dev.basalt.federation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.CloseableIteratorIteration;
import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.federated.FederationContext;
import org.eclipse.rdf4j.federated.evaluation.FederationEvaluationStatistics;
import org.eclipse.rdf4j.federated.evaluation.SparqlFederationEvalStrategy;
import org.eclipse.rdf4j.federated.evaluation.concurrent.ControlledWorkerScheduler;
import org.eclipse.rdf4j.federated.optimizer.GenericInfoOptimizer;
import org.eclipse.rdf4j.federated.optimizer.StatementGroupAndJoinOptimizer;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * FedX's SPARQL evaluation strategy with Basalt's additions, plugged in through FedX's
 * {@code FederationEvaluationStrategyFactory}:
 * <ul>
 * <li>{@link #optimize}: the answer-preserving rewrites of {@link RewritingStrategyFactory}, then
 * (unless star pushdown is off or the query names a dataset with FROM) {@link StarPushdown}, before
 * FedX's own optimizer pipeline runs;</li>
 * <li>{@link #optimizeJoinOrder}: FedX's statement-group and join-order optimizer with
 * {@link StarCostModel};</li>
 * <li>evaluation of {@link StarGroup}s, alone or as the right side of a join or an OPTIONAL, by
 * {@link StarEvaluator} (one request per member and block of rows); every other node is FedX's.</li>
 * </ul>
 * One instance per query (FedX creates it); FedX's worker threads may evaluate parts concurrently,
 * and nothing here keeps state between calls.
 */
final class StarStrategy extends SparqlFederationEvalStrategy {
    private final StarEvaluator stars;

    /** @param stars evaluates stars; null turns star pushdown off */
    StarStrategy(FederationContext context, StarEvaluator stars) {
        super(context);
        this.stars = stars;
    }

    @Override
    public TupleExpr optimize(TupleExpr expr, EvaluationStatistics stats, BindingSet bindings) {
        RewritingStrategyFactory.dropDuplicatePatterns(expr);
        RewritingStrategyFactory.filterOptionalPartsFirst(expr);
        RewritingStrategyFactory.keepOptionalFiltersInPlace(expr);
        if (stars != null && stats instanceof FederationEvaluationStatistics federated
                && !namesDataset(federated.getQueryInfo().getDataset())) {
            StarPushdown.rewrite(expr, stars.replication(), stars.replicatedRange());
            QueryInfo info = federated.getQueryInfo();
            expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
                @Override
                public void meetOther(QueryModelNode node) {
                    if (node instanceof StarGroup star) {
                        star.setQueryInfo(info);
                    }
                    super.meetOther(node);
                }
            });
        }
        return super.optimize(expr, stats, bindings);
    }

    /** Whether a query's dataset names graphs (FROM or FROM NAMED). */
    static boolean namesDataset(Dataset dataset) {
        return dataset != null && (!dataset.getDefaultGraphs().isEmpty() || !dataset.getNamedGraphs().isEmpty());
    }

    @Override
    protected void optimizeJoinOrder(TupleExpr query, QueryInfo queryInfo, GenericInfoOptimizer info) {
        new StatementGroupAndJoinOptimizer(queryInfo, StarCostModel.INSTANCE).optimize(query);
    }

    @Override
    public QueryEvaluationStep precompile(TupleExpr expr, QueryEvaluationContext context) {
        if (expr instanceof StarGroup star) {
            return bindings -> iteration(stars.join(star, List.of(bindings), false, star.queryInfo()));
        }
        return super.precompile(expr, context);
    }

    @Override
    public CloseableIteration<BindingSet> evaluate(TupleExpr expr, BindingSet bindings) {
        if (expr instanceof StarGroup star) {
            return iteration(stars.join(star, List.of(bindings), false, star.queryInfo()));
        }
        return super.evaluate(expr, bindings);
    }

    @Override
    public CloseableIteration<BindingSet> executeJoin(ControlledWorkerScheduler<BindingSet> joinScheduler,
            CloseableIteration<BindingSet> leftIter, TupleExpr rightArg, Set<String> joinVars, BindingSet bindings,
            QueryInfo queryInfo) throws QueryEvaluationException {
        if (rightArg instanceof StarGroup star) {
            return new ChunkedJoin(leftIter, rows -> stars.join(star, rows, false, queryInfo), stars.chunkRows());
        }
        return super.executeJoin(joinScheduler, leftIter, rightArg, joinVars, bindings, queryInfo);
    }

    @Override
    protected CloseableIteration<BindingSet> executeLeftJoin(ControlledWorkerScheduler<BindingSet> scheduler,
            CloseableIteration<BindingSet> leftIter, LeftJoin leftJoin, BindingSet bindings, QueryInfo queryInfo)
            throws QueryEvaluationException {
        if (leftJoin.getRightArg() instanceof StarGroup star && !leftJoin.hasCondition()) {
            return new ChunkedJoin(leftIter, rows -> stars.join(star, rows, true, queryInfo), stars.chunkRows());
        }
        return super.executeLeftJoin(scheduler, leftIter, leftJoin, bindings, queryInfo);
    }

    private static CloseableIteration<BindingSet> iteration(List<BindingSet> rows) {
        return new CloseableIteratorIteration<>(rows.iterator());
    }

    /**
     * The left side's rows joined with a star a chunk at a time (several bound-join blocks, sent
     * together), so that a large left side is never held whole. Read by one consumer at a time.
     */
    static final class ChunkedJoin extends LookAheadIteration<BindingSet> {
        private final CloseableIteration<BindingSet> left;
        private final Function<List<BindingSet>, List<BindingSet>> join;
        private final int chunk;
        private Iterator<BindingSet> current = Collections.emptyIterator();

        ChunkedJoin(CloseableIteration<BindingSet> left, Function<List<BindingSet>, List<BindingSet>> join, int chunk) {
            this.left = left;
            this.join = join;
            this.chunk = chunk;
        }

        @Override
        protected BindingSet getNextElement() {
            while (!current.hasNext()) {
                if (!left.hasNext()) {
                    return null;
                }
                List<BindingSet> rows = new ArrayList<>(chunk);
                while (rows.size() < chunk && left.hasNext()) {
                    rows.add(left.next());
                }
                current = join.apply(rows).iterator();
            }
            return current.next();
        }

        @Override
        protected void handleClose() {
            left.close();
        }
    }
}
