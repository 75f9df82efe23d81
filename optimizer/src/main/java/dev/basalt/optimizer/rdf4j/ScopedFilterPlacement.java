package dev.basalt.optimizer.rdf4j;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryOptimizer;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;

/**
 * RDF4J's filter placement ({@code FilterOptimizer}) with the moves that change answers undone. RDF4J 5.0.3
 * moves a filter into the operand of a join whose binding names hold the filter's variables, also where
 * that operand only may bind one of them (an OPTIONAL) and another operand of the join binds it: the filter
 * then sees the variable unbound in rows the join binds later, and {@code ?s ex:p ?b OPTIONAL { ?e ex:q ?b }
 * VALUES ?e { ex:x } FILTER(BOUND(?e))} lost every row (a group's filters apply to the whole group, SPARQL
 * 1.1 section 18.2.2.6). RDF4J's own pipeline mostly hides it: its join optimizer, which runs before the
 * filter placement there, puts the VALUES first; Basalt runs that optimizer after its own step.
 *
 * <p>Each filter's argument is noted before RDF4J's placement; a filter whose new argument assures fewer of
 * the filter's variables than the one it had goes back above that one; a VALUES variable that some row
 * leaves UNDEF does not count as assured. Thread rules: stateless between
 * calls, one query tree per call.
 */
final class ScopedFilterPlacement implements QueryOptimizer {
    private final QueryOptimizer rdf4j;

    ScopedFilterPlacement(QueryOptimizer rdf4j) {
        this.rdf4j = rdf4j;
    }

    @Override
    public void optimize(TupleExpr tupleExpr, Dataset dataset, BindingSet bindings) {
        Map<Filter, TupleExpr> before = new IdentityHashMap<>();
        tupleExpr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(Filter node) {
                before.put(node, node.getArg());
                super.meet(node);
            }
        });
        rdf4j.optimize(tupleExpr, dataset, bindings);
        for (Map.Entry<Filter, TupleExpr> e : before.entrySet()) {
            Filter f = e.getKey();
            TupleExpr original = e.getValue();
            if (f.getArg() == original || f.getParentNode() == null || original.getParentNode() == null) {
                continue;
            }
            Set<String> vars = conditionVars(f);
            Set<String> assuredBefore = new HashSet<>(original.getAssuredBindingNames());
            assuredBefore.retainAll(vars);
            Set<String> assuredAfter = new HashSet<>(f.getArg().getAssuredBindingNames());
            assuredAfter.removeAll(valuesWithUndef(f.getArg()));
            if (!assuredAfter.containsAll(assuredBefore)) {
                f.replaceWith(f.getArg());
                original.replaceWith(f);
                f.setArg(original);
            }
        }
    }

    /**
     * The names some VALUES row under {@code expr} leaves UNDEF. RDF4J's {@code BindingSetAssignment} counts
     * every name of its VALUES as assured, also one a row leaves UNDEF, so a filter over a VALUES variable
     * would be placed on the VALUES alone and drop its UNDEF rows before the join that binds the variable
     * ({@code VALUES ?d { "y" UNDEF } ex:s ex:p ?d FILTER(BOUND(?d))}). Where such a name leaves the
     * filter's argument, the move is undone as above.
     */
    private static Set<String> valuesWithUndef(TupleExpr expr) {
        Set<String> names = new HashSet<>();
        expr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(BindingSetAssignment node) {
                for (BindingSet row : node.getBindingSets()) {
                    for (String name : node.getBindingNames()) {
                        if (!row.hasBinding(name)) {
                            names.add(name);
                        }
                    }
                }
            }
        });
        return names;
    }

    private static Set<String> conditionVars(Filter f) {
        Set<String> vars = new HashSet<>();
        f.getCondition().visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(Var node) {
                if (!node.hasValue()) {
                    vars.add(node.getName());
                }
            }
        });
        return vars;
    }
}
