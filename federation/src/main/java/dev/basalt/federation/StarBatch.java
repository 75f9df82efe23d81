package dev.basalt.federation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.Difference;
import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Group;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.UnaryTupleOperator;
import org.eclipse.rdf4j.query.algebra.Union;

/**
 * Sends the stars of one query that do not depend on other rows in one request per member, before the
 * front evaluates the query ({@link DirectEvaluation}): the branches of a UNION of stars (BSBM Q4),
 * the OPTIONAL stars that share no variable with what precedes them (Q7's offers and reviews beside
 * the product), a constant-subject star and a variable-subject one (Q11).
 *
 * <p>A star is <em>independent</em> when no row it can be evaluated with binds any of its variables:
 * walking down from the root through the operators whose evaluation passes on the rows it was given
 * (projection, DISTINCT, ORDER BY, slices, FILTER and BIND arguments, grouping, UNION, and both sides
 * of joins and OPTIONALs, the right side with what the left side binds), a star whose variables meet
 * none of the names bound so far gets the same answer for every row, so it can be asked once, at
 * once. Each member concerned (every member for a variable subject, the owner for a constant one, one
 * member for a star over replicated subjects, as {@link StarEvaluator} routes them) receives
 * <pre>SELECT * WHERE { { body0 BIND(0 AS ?basalt_star) } UNION { body1 BIND(1 AS ?basalt_star) } … }</pre>
 * and the answer's rows are handed to each star by their branch number. The branch number is a BIND, not a
 * VALUES block: a Basalt member keeps the compiled plan of a query shape whose constants sit in patterns,
 * BINDs and conditions, and compiles a query with a constant in VALUES every time. Stars under other operators
 * (EXISTS, MINUS's right side, subqueries the walk does not enter) keep being asked when they are
 * evaluated. Only a query where this saves requests is batched.
 *
 * <p>Thread rules: stateless; {@link #askAhead} runs on the query's request thread before evaluation,
 * the requests on the federation's request pool but the last, which the request thread sends itself;
 * the branch futures are read by the request thread.
 */
final class StarBatch {
    /** The variable that numbers a batch's branches in the members' answers. */
    static final String BRANCH = "basalt_star";

    private StarBatch() {
    }

    /**
     * Sends the independent stars of {@code plan} ahead, one request per member, and records their answers
     * in {@code query}; does nothing when that would not save a request.
     */
    static void askAhead(TupleExpr plan, StarEvaluator stars, FrontQuery query) {
        List<StarGroup> found = new ArrayList<>();
        independent(plan, Set.of(), found);
        if (found.size() < 2) {
            return;
        }
        int members = stars.memberCount();
        List<List<Integer>> branchesOf = new ArrayList<>();
        for (int shard = 0; shard < members; shard++) {
            branchesOf.add(new ArrayList<>());
        }
        int alone = 0;
        for (int branch = 0; branch < found.size(); branch++) {
            List<Integer> route = stars.routeAlone(found.get(branch));
            alone += route.size();
            for (int shard : route) {
                branchesOf.get(shard).add(branch);
            }
        }
        int together = (int) branchesOf.stream().filter(b -> !b.isEmpty()).count();
        if (together >= alone) {
            return;
        }
        List<List<Future<List<BindingSet>>>> perStar = new ArrayList<>();
        for (int branch = 0; branch < found.size(); branch++) {
            perStar.add(new ArrayList<>(Collections.nCopies(members, null)));
        }
        List<java.util.concurrent.FutureTask<List<BindingSet>>> tasks = new ArrayList<>();
        for (int shard = 0; shard < members; shard++) {
            List<Integer> branches = branchesOf.get(shard);
            if (branches.isEmpty()) {
                continue;
            }
            StringBuilder text = new StringBuilder("SELECT * WHERE {");
            for (int i = 0; i < branches.size(); i++) {
                int branch = branches.get(i);
                text.append(i == 0 ? " { " : " UNION { ").append(found.get(branch).body()).append(" BIND(")
                        .append(branch).append(" AS ?").append(BRANCH).append(") }");
            }
            java.util.concurrent.FutureTask<List<BindingSet>> answer = stars.task(shard, text.append(" }").toString(), query);
            tasks.add(answer);
            query.sentAhead(answer);
            for (int branch : branches) {
                perStar.get(branch).set(shard, new Branch(answer, branch));
            }
        }
        for (int branch = 0; branch < found.size(); branch++) {
            query.askedAhead(found.get(branch), perStar.get(branch));
        }
        stars.start(tasks);
    }

    /** Adds to {@code out} the stars under {@code node} that no row can bind a variable of ({@code bound}: names rows may bind). */
    static void independent(TupleExpr node, Set<String> bound, List<StarGroup> out) {
        if (node instanceof StarGroup star) {
            if (Collections.disjoint(star.getBindingNames(), bound)) {
                out.add(star);
            }
        } else if (node instanceof Join || node instanceof LeftJoin || node instanceof Difference) {
            org.eclipse.rdf4j.query.algebra.BinaryTupleOperator binary = (org.eclipse.rdf4j.query.algebra.BinaryTupleOperator) node;
            independent(binary.getLeftArg(), bound, out);
            Set<String> more = new HashSet<>(bound);
            more.addAll(binary.getLeftArg().getBindingNames());
            independent(binary.getRightArg(), more, out);
        } else if (node instanceof Union union) {
            independent(union.getLeftArg(), bound, out);
            independent(union.getRightArg(), bound, out);
        } else if (node instanceof QueryRoot || node instanceof Projection || node instanceof MultiProjection
                || node instanceof Distinct || node instanceof Reduced || node instanceof Order || node instanceof Slice
                || node instanceof Filter || node instanceof Extension || node instanceof Group) {
            independent(((UnaryTupleOperator) node).getArg(), bound, out);
        }
        // anything else may evaluate its arguments with rows the walk cannot see: its stars are asked when evaluated
    }

    /**
     * One branch of a batch's answer: the rows numbered {@code branch}. Cancelling it does nothing (other
     * branches read the same request; {@link FrontQuery#cancelAhead()} cancels the request).
     */
    private static final class Branch implements Future<List<BindingSet>> {
        private final Future<List<BindingSet>> all;
        private final String branch;
        private volatile List<BindingSet> rows;

        Branch(Future<List<BindingSet>> all, int branch) {
            this.all = all;
            this.branch = Integer.toString(branch);
        }

        @Override
        public List<BindingSet> get(long timeout, TimeUnit unit)
                throws InterruptedException, ExecutionException, TimeoutException {
            return pick(all.get(timeout, unit));
        }

        @Override
        public List<BindingSet> get() throws InterruptedException, ExecutionException {
            return pick(all.get());
        }

        private List<BindingSet> pick(List<BindingSet> answer) {
            List<BindingSet> mine = rows;
            if (mine == null) {
                mine = new ArrayList<>();
                for (BindingSet row : answer) {
                    org.eclipse.rdf4j.model.Value number = row.getValue(BRANCH);
                    if (number != null && branch.equals(number.stringValue())) {
                        mine.add(row);
                    }
                }
                rows = mine;
            }
            return mine;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return all.isCancelled();
        }

        @Override
        public boolean isDone() {
            return all.isDone();
        }
    }
}
