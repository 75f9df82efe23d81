package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.helpers.TupleExprs;

/**
 * The constants of a plan's tree ({@link ShapePlanCache}): finding them and putting others in their place, in
 * variables, value constants and VALUES rows.
 *
 * <p>Thread rules: stateless; each call changes only the tree it is given, which belongs to the calling thread.
 */
final class PlanValues {
    private PlanValues() {
    }

    /**
     * Replaces, in {@code tree}, every value that is a key of {@code values} by its value there: in variables
     * (renamed as the parser names constants, and so in the projections and extensions that name them), value
     * constants and VALUES rows. Returns the stars of the tree.
     */
    static List<StarGroup> substitute(TupleExpr tree, Map<Value, Value> values) {
        ValueSites sites = new ValueSites(values::get);
        tree.visit(sites);
        for (Var[] r : sites.replaced) {
            r[0].replaceWith(r[1]);
        }
        for (QueryModelNode named : sites.named) {
            if (named instanceof ProjectionElem p) {
                p.setName(sites.renamed.getOrDefault(p.getName(), p.getName()));
            } else if (named instanceof ExtensionElem e) {
                e.setName(sites.renamed.getOrDefault(e.getName(), e.getName()));
            }
        }
        return sites.stars;
    }

    /** Calls {@code seen} with every value of a variable, value constant or VALUES row of {@code tree}. */
    static void eachValue(TupleExpr tree, java.util.function.Consumer<Value> seen) {
        tree.visit(new ValueSites(v -> {
            seen.accept(v);
            return null;
        }));
    }

    /**
     * One visit of a tree's value sites (variables, value constants, VALUES rows), each value passed to {@code to}:
     * a non-null answer replaces it (variables are replaced after the visit, renamed as the parser names
     * constants). Collects the stars, and the projection and extension elements whose names may name a renamed
     * constant (CONSTRUCT templates).
     */
    private static final class ValueSites extends AbstractQueryModelVisitor<RuntimeException> {
        private final Function<Value, Value> to;
        final Map<String, String> renamed = new HashMap<>();
        final List<Var[]> replaced = new ArrayList<>();
        final List<StarGroup> stars = new ArrayList<>();
        final List<QueryModelNode> named = new ArrayList<>();

        ValueSites(Function<Value, Value> to) {
            this.to = to;
        }

        @Override
        public void meetOther(QueryModelNode node) {
            if (node instanceof StarGroup star) {
                stars.add(star);
            }
            super.meetOther(node);
        }

        @Override
        public void meet(ProjectionElem node) {
            named.add(node);
            super.meet(node);
        }

        @Override
        public void meet(ExtensionElem node) {
            named.add(node);
            super.meet(node);
        }

        @Override
        public void meet(Var node) {
            Value value = node.hasValue() ? to.apply(node.getValue()) : null;
            if (value != null) {
                String name = node.isConstant() ? TupleExprs.getConstVarName(value) : node.getName();
                renamed.put(node.getName(), name);
                replaced.add(new Var[] { node, new Var(name, value, node.isAnonymous(), node.isConstant()) });
            }
        }

        @Override
        public void meet(ValueConstant node) {
            Value value = to.apply(node.getValue());
            if (value != null) {
                // a CONSTRUCT template's constant is bound by an extension named after its value
                renamed.put(TupleExprs.getConstVarName(node.getValue()), TupleExprs.getConstVarName(value));
                node.setValue(value);
            }
        }

        @Override
        public void meet(BindingSetAssignment node) {
            boolean[] changed = { false };
            List<BindingSet> rows = new ArrayList<>();
            node.getBindingSets().forEach(row -> rows.add(row(row, changed)));
            if (changed[0]) {
                node.setBindingSets(rows); // only then: a template's rows are only read
            }
        }

        /** A VALUES row with each value {@code to} replaces replaced ({@code changed} set when one is). */
        private BindingSet row(BindingSet row, boolean[] changed) {
            QueryBindingSet copy = new QueryBindingSet(row.size());
            row.forEach(b -> {
                Value value = to.apply(b.getValue());
                changed[0] |= value != null;
                copy.addBinding(b.getName(), value == null ? b.getValue() : value);
            });
            return copy;
        }
    }
}
