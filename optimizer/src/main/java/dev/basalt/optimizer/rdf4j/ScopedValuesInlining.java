package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.AbstractQueryModelNode;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Group;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryOptimizer;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;

/**
 * RDF4J's inlining of a one-row VALUES ({@code BindingSetAssignmentInlinerOptimizer}), run only where it
 * keeps the answer. RDF4J 5.0.3 walks the query tree and, once it has met a one-row VALUES, replaces every
 * variable of that name it meets afterwards by the VALUES' term, wherever the VALUES was: one inside a
 * MINUS, a FILTER (NOT) EXISTS or a subquery also rewrites the patterns of the enclosing group that the
 * walk reaches later. {@code ?a ex:p3 "x" . MINUS { ?a ex:p1 ?a . VALUES ?a { ex:s8 } } ?a ex:p0 ?d}
 * became a query for {@code ex:s8} and lost every row: the MINUS's right side is its own group, which
 * joins with nothing outside it (SPARQL 1.1 sections 18.2.2 and 18.5, Minus); a subquery's variables are
 * not the outer group's (18.2.1); an EXISTS substitutes the row into its pattern, not the other way.
 *
 * <p>Here RDF4J's step runs only if every one-row VALUES of the query sits in the query's own group:
 * between it and the root only joins, filters (as their argument), BINDs, grouping and the solution
 * modifiers, none of them a new variable scope. There its binding holds in every solution of the query,
 * so replacing the variable by the term keeps the answer. Otherwise the VALUES stays a join, which is
 * always correct. Thread rules: stateless between calls, one query tree per call.
 */
final class ScopedValuesInlining implements QueryOptimizer {
    private final QueryOptimizer rdf4j;

    ScopedValuesInlining(QueryOptimizer rdf4j) {
        this.rdf4j = rdf4j;
    }

    @Override
    public void optimize(TupleExpr tupleExpr, Dataset dataset, BindingSet bindings) {
        List<BindingSetAssignment> oneRow = new ArrayList<>();
        tupleExpr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            @Override
            public void meet(BindingSetAssignment node) {
                var rows = node.getBindingSets().iterator();
                if (rows.hasNext()) {
                    rows.next();
                    if (!rows.hasNext()) {
                        oneRow.add(node);
                    }
                }
            }
        });
        for (BindingSetAssignment values : oneRow) {
            if (!inQueryGroup(values)) {
                return;
            }
        }
        rdf4j.optimize(tupleExpr, dataset, bindings);
    }

    /** Whether only joins, filters' arguments, BINDs and solution modifiers of the outermost scope lie above {@code node}. */
    private static boolean inQueryGroup(TupleExpr node) {
        QueryModelNode child = node;
        for (QueryModelNode parent = node.getParentNode(); parent != null; child = parent, parent = parent.getParentNode()) {
            if (parent instanceof QueryRoot) {
                return true;
            }
            boolean joinLike = parent instanceof Join || parent instanceof Extension || parent instanceof Group
                    || parent instanceof Order || parent instanceof Slice || parent instanceof Distinct
                    || parent instanceof Reduced || parent instanceof Projection
                    || (parent instanceof Filter f && f.getArg() == child);
            if (!joinLike || (parent instanceof AbstractQueryModelNode n && n.isVariableScopeChange())) {
                return false;
            }
        }
        return true;
    }
}
