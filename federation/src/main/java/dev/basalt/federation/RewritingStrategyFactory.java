package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.federated.evaluation.FederationEvalStrategy;
import org.eclipse.rdf4j.federated.evaluation.FederationEvaluationStrategyFactory;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Difference;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * FedX's SPARQL evaluation strategy with three rewrites applied before FedX optimizes a query, each
 * working around a FedX 5.1.2 defect that BSBM's Explore queries hit; both keep the query's answer.
 *
 * <ol>
 * <li><b>A triple pattern repeated in one basic graph pattern is dropped once.</b> FedX leaves the
 * second copy as a plain statement pattern that its strategy cannot evaluate ("Federation Strategy
 * does not support TripleSource#getStatements"); Q1 and Q4 repeat a pattern when their two feature
 * parameters are equal. A basic graph pattern is matched as a set of patterns and a graph holds each
 * triple once, so a pattern joined with itself on all its variables gives the same solutions.</li>
 * <li><b>A FILTER conjunct that reads a variable of an OPTIONAL's or a MINUS's right side is kept
 * where it is.</b> FedX's filter push-down copies such a conjunct into the statement patterns of
 * that right side, where it filters before the optional part is joined: {@code OPTIONAL { … ?t }
 * FILTER(!bound(?t))} (Q3) then drops every optional match and returns solutions that must be
 * excluded. The conjunct {@code c} is written {@code c || c}, which FedX does not push (it pushes
 * no disjunction) and which evaluates like {@code c}, errors included ({@code c || false} would do
 * too, but RDF4J's constant folding, which FedX runs first, turns it back into {@code c}).</li>
 * <li><b>A FILTER inside an OPTIONAL that reads only variables the optional part always binds is
 * applied to the optional part.</b> FedX evaluates such a left-join condition so that a left
 * solution whose optional matches partly fail the condition comes out both joined and unjoined
 * (Q7: a product with one current and several expired offers doubles its review rows).
 * {@code OPTIONAL { P FILTER(c) }} equals {@code OPTIONAL { { P FILTER(c) } }} when every variable
 * of {@code c} is bound by every solution of {@code P}: {@code c} then sees the same values
 * whether it is evaluated on {@code P}'s solutions or on the joined ones.</li>
 * </ol>
 *
 * <p>Members are SPARQL endpoints, so the strategy is FedX's SPARQL strategy, extended by
 * {@link StarStrategy} (which applies these rewrites, then the star pushdown). Thread-safe as FedX's
 * factory is; the rewrites touch only the query tree they are given.
 */
final class RewritingStrategyFactory extends FederationEvaluationStrategyFactory {
    private final StarEvaluator stars;

    /** @param stars evaluates star subqueries; null turns star pushdown off */
    RewritingStrategyFactory(StarEvaluator stars) {
        this.stars = stars;
    }

    @Override
    public FederationEvalStrategy createEvaluationStrategy(Dataset dataset, TripleSource tripleSource,
            EvaluationStatistics statistics) {
        return new StarStrategy(getFederationContext(), stars);
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

    /** Moves each left-join condition that reads only variables the right side always binds onto that side. */
    static void filterOptionalPartsFirst(TupleExpr expr) {
        List<LeftJoin> joins = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(LeftJoin node) {
                joins.add(node);
                super.meet(node);
            }
        });
        for (LeftJoin join : joins) {
            ValueExpr condition = join.getCondition();
            if (condition != null && join.getRightArg().getAssuredBindingNames().containsAll(variables(condition))) {
                join.setRightArg(new Filter(join.getRightArg(), condition));
                join.setCondition(null);
            }
        }
    }

    /** Rewrites conjuncts that read a variable of an OPTIONAL's or MINUS's right side as {@code c || c}. */
    static void keepOptionalFiltersInPlace(TupleExpr expr) {
        List<Filter> filters = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Filter filter) {
                filters.add(filter);
                super.meet(filter);
            }
        });
        for (Filter filter : filters) {
            Set<String> guarded = rightSideVariables(filter.getArg());
            if (guarded.isEmpty()) {
                continue;
            }
            List<ValueExpr> conjuncts = new ArrayList<>();
            splitConjunction(filter.getCondition(), conjuncts);
            boolean changed = false;
            for (int i = 0; i < conjuncts.size(); i++) {
                Set<String> read = variables(conjuncts.get(i));
                read.retainAll(guarded);
                if (!read.isEmpty()) {
                    conjuncts.set(i, new Or(conjuncts.get(i), conjuncts.get(i).clone()));
                    changed = true;
                }
            }
            if (changed) {
                ValueExpr condition = conjuncts.get(conjuncts.size() - 1);
                for (int i = conjuncts.size() - 2; i >= 0; i--) {
                    condition = new And(conjuncts.get(i), condition);
                }
                filter.setCondition(condition);
            }
        }
    }

    /** Variables used in the right side of any OPTIONAL (LeftJoin) or MINUS (Difference) below {@code expr}. */
    private static Set<String> rightSideVariables(TupleExpr expr) {
        Set<String> names = new HashSet<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(LeftJoin node) {
                names.addAll(variables(node.getRightArg()));
                super.meet(node);
            }

            @Override
            public void meet(Difference node) {
                names.addAll(variables(node.getRightArg()));
                super.meet(node);
            }
        });
        return names;
    }

    static void splitConjunction(ValueExpr expr, List<ValueExpr> out) {
        if (expr instanceof And and) {
            splitConjunction(and.getLeftArg(), out);
            splitConjunction(and.getRightArg(), out);
        } else {
            out.add(expr);
        }
    }

    /** Names of the unbound variables mentioned anywhere under {@code node}. */
    static Set<String> variables(org.eclipse.rdf4j.query.algebra.QueryModelNode node) {
        Set<String> names = new HashSet<>();
        node.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var var) {
                if (!var.hasValue()) {
                    names.add(var.getName());
                }
            }
        });
        return names;
    }
}
