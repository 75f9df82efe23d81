package dev.basalt.federation;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.CloseableIteratorIteration;
import org.eclipse.rdf4j.common.iteration.EmptyIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.Service;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;
import org.eclipse.rdf4j.query.parser.ParsedQuery;

/**
 * Evaluates, without FedX, a query that after {@link StarPushdown} reads data through stars only (no
 * statement pattern left to FedX, no GRAPH, path, SERVICE or FROM): RDF4J's standard evaluation of
 * the algebra, with each {@link StarGroup} answered by {@link StarEvaluator} (a star alone, or the
 * right side of a join or of an OPTIONAL without condition, a chunk of left rows at a time, owner-only
 * routing of bound subjects). FedX would plan and evaluate such a query the same way — its source
 * selection never sees a star — so going around it saves its per-query planning and scheduling and
 * the second parse of the query. The arguments of a join of stars are ordered greedily by
 * {@link StarCostModel}, as FedX's join optimizer orders them; a LIMIT over one star goes to the members
 * ({@link MemberLimit}). DESCRIBE: {@link DirectDescribe}.
 *
 * <p>The query's deadline ({@link FrontQuery}) bounds the evaluation: every operator checks it as it reads
 * a row, and star requests wait at most the time left, so a query past its timeout stops with a
 * {@link org.eclipse.rdf4j.query.QueryInterruptedException} wherever its time goes.
 *
 * <p>One instance per query, used by the front's request thread that evaluates it; star requests run
 * on the federation's request pool.
 */
final class DirectEvaluation extends DefaultEvaluationStrategy {
    private static final TripleSource NO_STATEMENTS = new TripleSource() {
        @Override
        public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
                Resource... contexts) {
            return new EmptyIteration<>();
        }

        @Override
        public ValueFactory getValueFactory() {
            return SimpleValueFactory.getInstance();
        }
    };

    private final StarEvaluator stars;
    private final FrontQuery query;

    private DirectEvaluation(StarEvaluator stars, Dataset dataset, FrontQuery query) {
        super(NO_STATEMENTS, dataset, null);
        this.stars = stars;
        this.query = query;
    }

    /**
     * The query's rewritten algebra when it reads data through stars only, else null (FedX answers it).
     * A DESCRIBE's plan keeps its describe operator on top ({@link DirectDescribe} answers it).
     */
    static TupleExpr plan(ParsedQuery query, StarEvaluator stars) {
        if (stars == null || StarStrategy.namesDataset(query.getDataset())) {
            return null;
        }
        TupleExpr expr = query.getTupleExpr().clone();
        RewritingStrategyFactory.dropDuplicatePatterns(expr);
        RewritingStrategyFactory.filterOptionalPartsFirst(expr);
        RewritingStrategyFactory.keepOptionalFiltersInPlace(expr);
        StarPushdown.rewrite(expr, stars.replication(), stars.replicatedRange());
        boolean[] other = new boolean[1];
        List<Join> joins = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (node instanceof StatementPattern || node instanceof Service || node instanceof ArbitraryLengthPath
                        || node instanceof ZeroLengthPath) {
                    other[0] = true;
                    return;
                }
                if (node instanceof Join join && !(join.getParentNode() instanceof Join)) {
                    joins.add(join);
                }
                super.meetNode(node);
            }
        });
        if (other[0]) {
            return null;
        }
        joins.forEach(DirectEvaluation::orderJoin);
        MemberLimit.push(expr);
        return expr;
    }

    /**
     * The solutions of a planned query ({@link #plan}), read by the calling thread; the stars that do not
     * depend on other rows are asked first, together ({@link StarBatch}). Every operator stops with the
     * query's timeout error once {@code query}'s deadline has passed.
     */
    static CloseableIteration<BindingSet> evaluate(TupleExpr plan, StarEvaluator stars, FrontQuery query) {
        StarBatch.askAhead(plan, stars, query);
        DirectEvaluation strategy = new DirectEvaluation(stars, null, query);
        return strategy.precompile(plan).evaluate(EmptyBindingSet.getInstance());
    }

    /** A CONSTRUCT solution as a statement ({@code subject}, {@code predicate}, {@code object}, {@code context}), or null. */
    static Statement statement(BindingSet row) {
        Value s = row.getValue("subject");
        Value p = row.getValue("predicate");
        Value o = row.getValue("object");
        Value c = row.getValue("context");
        if (!(s instanceof Resource subject) || !(p instanceof IRI predicate) || o == null) {
            return null;
        }
        ValueFactory vf = SimpleValueFactory.getInstance();
        return c instanceof Resource context ? vf.createStatement(subject, predicate, o, context)
                : vf.createStatement(subject, predicate, o);
    }

    /** Every operator's rows pass a check of the query's deadline ({@link Deadline}). */
    @Override
    public QueryEvaluationStep precompile(TupleExpr expr, QueryEvaluationContext context) {
        QueryEvaluationStep step = step(expr, context);
        return bindings -> {
            query.check();
            return new Deadline(step.evaluate(bindings), query);
        };
    }

    private QueryEvaluationStep step(TupleExpr expr, QueryEvaluationContext context) {
        if (expr instanceof StarGroup star) {
            return bindings -> rows(stars.join(star, List.of(bindings), false, null, query));
        }
        if (expr instanceof Join join && join.getRightArg() instanceof StarGroup star) {
            QueryEvaluationStep left = precompile(join.getLeftArg(), context);
            return bindings -> new StarStrategy.ChunkedJoin(left.evaluate(bindings),
                    rows -> stars.join(star, rows, false, null, query), stars.chunkRows());
        }
        if (expr instanceof LeftJoin leftJoin && !leftJoin.hasCondition()
                && leftJoin.getRightArg() instanceof StarGroup star) {
            QueryEvaluationStep left = precompile(leftJoin.getLeftArg(), context);
            return bindings -> new StarStrategy.ChunkedJoin(left.evaluate(bindings),
                    rows -> stars.join(star, rows, true, null, query), stars.chunkRows());
        }
        return super.precompile(expr, context);
    }

    /**
     * An operator's rows, each read after a check of the query's deadline: whatever loop reads them (a
     * join, a sort, an aggregate, the answer's writer) stops with the timeout error once it has passed.
     */
    private static final class Deadline implements CloseableIteration<BindingSet> {
        private final CloseableIteration<BindingSet> rows;
        private final FrontQuery query;

        Deadline(CloseableIteration<BindingSet> rows, FrontQuery query) {
            this.rows = rows;
            this.query = query;
        }

        @Override
        public boolean hasNext() {
            query.check();
            return rows.hasNext();
        }

        @Override
        public BindingSet next() {
            return rows.next();
        }

        @Override
        public void remove() {
            rows.remove();
        }

        @Override
        public void close() {
            rows.close();
        }
    }

    private static CloseableIteration<BindingSet> rows(List<BindingSet> rows) {
        return new CloseableIteratorIteration<>(rows.iterator());
    }

    /**
     * Rebuilds a join tree left-deep with its arguments in greedy {@link StarCostModel} order (the
     * cheapest argument given what the chosen ones bind, next); arguments other than stars keep
     * their place after the stars chosen before them.
     */
    private static void orderJoin(Join root) {
        List<TupleExpr> args = new ArrayList<>();
        flatten(root, args);
        if (args.stream().noneMatch(a -> a instanceof StarGroup)) {
            return;
        }
        List<TupleExpr> ordered = new ArrayList<>();
        java.util.Set<String> bound = new java.util.HashSet<>();
        List<TupleExpr> left = new ArrayList<>(args);
        while (!left.isEmpty()) {
            TupleExpr best = null;
            double bestCost = Double.MAX_VALUE;
            for (TupleExpr arg : left) {
                double cost = arg instanceof StarGroup ? StarCostModel.INSTANCE.estimateCost(arg, bound) : 500;
                if (cost < bestCost) {
                    best = arg;
                    bestCost = cost;
                }
            }
            left.remove(best);
            ordered.add(best);
            bound.addAll(best.getBindingNames());
        }
        TupleExpr tree = ordered.get(0);
        for (int i = 1; i < ordered.size(); i++) {
            tree = new Join(tree, ordered.get(i));
        }
        root.replaceWith(tree);
    }

    private static void flatten(TupleExpr expr, List<TupleExpr> out) {
        if (expr instanceof Join join) {
            flatten(join.getLeftArg(), out);
            flatten(join.getRightArg(), out);
        } else {
            out.add(expr);
        }
    }
}
