package dev.basalt.optimizer.rdf4j;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Exists;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.SubQueryValueOperator;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;

/**
 * Where a query shape's sentinels stand in its optimized template, read when {@link ShapePlans} compiles a plan to
 * keep: the first rule of its class comment (a sentinel in a pattern's subject, predicate or object, or bound by a
 * BIND, a CONSTRUCT template or VALUES, or read by a FILTER's or OPTIONAL's condition; no EXISTS).
 *
 * <p>Thread rules: no state; each call reads one tree that its caller owns.
 */
final class ShapeSentinels {
    private ShapeSentinels() {
    }

    /**
     * Collects the distinct sentinels of {@code tree} in order of appearance: those that are a pattern's subject,
     * predicate or object constant into {@code inPatterns}, those bound as constants by a BIND, a CONSTRUCT
     * template or a VALUES row, or read by a condition, into {@code bound}; false if a sentinel is anywhere else or the tree has an EXISTS.
     */
    static boolean collect(PreparedAlgebra.Shape shape, QueryRoot tree, List<Value> inPatterns,
            List<Value> bound) {
        Set<Value> seenInPatterns = new HashSet<>();
        Set<Value> seenBound = new HashSet<>();
        boolean[] ok = { true };
        tree.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            private boolean sentinel(Value v) {
                return v != null && shape.valueOf(v) != null;
            }

            @Override
            public void meet(Var node) {
                if (!sentinel(node.getValue())) {
                    return;
                }
                if (node.getParentNode() instanceof ExtensionElem || inCondition(node)) {
                    if (seenBound.add(node.getValue())) {
                        bound.add(node.getValue());
                    }
                    return;
                }
                ok[0] &= node.isConstant() && node.getParentNode() instanceof StatementPattern sp
                        && sp.getContextVar() != node;
                if (seenInPatterns.add(node.getValue())) {
                    inPatterns.add(node.getValue());
                }
            }

            @Override
            public void meet(ValueConstant node) {
                if (sentinel(node.getValue())) {
                    ok[0] &= node.getParentNode() instanceof ExtensionElem || inCondition(node);
                    if (seenBound.add(node.getValue())) {
                        bound.add(node.getValue());
                    }
                }
            }

            @Override
            public void meet(BindingSetAssignment node) {
                // the compiled VALUES turns its values into ids per evaluation (ValuesOp), through the
                // evaluation's constants; the number of rows and their UNDEFs are part of the shape
                for (BindingSet row : node.getBindingSets()) {
                    row.forEach(b -> {
                        if (sentinel(b.getValue()) && seenBound.add(b.getValue())) {
                            bound.add(b.getValue());
                        }
                    });
                }
            }

            @Override
            public void meet(Exists node) {
                ok[0] = false;
            }
        });
        return ok[0];
    }

    /**
     * Whether {@code node} is part of a FILTER's or an OPTIONAL's condition (only expressions between them), which
     * Basalt compiles into conditions that take each evaluation's constants (see {@code Condition}).
     */
    private static boolean inCondition(QueryModelNode node) {
        QueryModelNode child = node;
        QueryModelNode parent = node.getParentNode();
        while (parent instanceof ValueExpr && !(parent instanceof SubQueryValueOperator)) {
            child = parent;
            parent = parent.getParentNode();
        }
        return parent instanceof Filter f && f.getCondition() == child
                || parent instanceof LeftJoin lj && lj.getCondition() == child;
    }
}
