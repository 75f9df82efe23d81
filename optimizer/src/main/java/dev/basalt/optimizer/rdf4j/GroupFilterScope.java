package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.AbstractQueryModelNode;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryOptimizer;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;

/**
 * Puts each FILTER over the whole group it was written in (SPARQL 1.1 section 18.2.2.6: the filters of a
 * group apply to the solutions of the whole group, wherever they stand in it). RDF4J 5.0.3's parser
 * applies a FILTER that precedes an OPTIONAL to the part of the group up to that OPTIONAL only, and joins
 * what follows outside it: {@code ?b ex:p0 ?d . FILTER(?c = 1) OPTIONAL { ?a ex:p1 ?b } ?d ?c ?d} becomes
 * {@code Join(Filter(LeftJoin(..)), ?d ?c ?d)}, where the filter sees {@code ?c} unbound in every row (and an
 * EXISTS in it matches with {@code ?c} free).
 *
 * <p>Runs first, on the query as parsed: a filter that is not a group of its own (RDF4J marks a braced group
 * as a new variable scope) moves above its parent while that parent is a join, a BIND or the left side of
 * an OPTIONAL of the same group; a parent that is the group's root (a new scope) takes the filter above it,
 * which becomes the root. RDF4J does not mark the group of a GRAPH, so inside one the filter moves only
 * over a join whose other side reads the same graph, and not over a BIND; a filter whose patterns read
 * several graphs, or none, stays. Filters written last in a group are already there. A filter whose argument binds
 * all its variables in every row stays: there it commutes with the joins above it (and RDF4J's parser
 * writes a path from a variable to itself as a sameTerm filter right above the path, which its later steps
 * expect there). Thread rules: stateless, one
 * query tree per call.
 */
final class GroupFilterScope implements QueryOptimizer {
    @Override
    public void optimize(TupleExpr tupleExpr, Dataset dataset, BindingSet bindings) {
        List<Filter> filters = new ArrayList<>();
        tupleExpr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(Filter node) {
                super.meet(node);
                if (!node.isVariableScopeChange() && !node.getArg().getAssuredBindingNames().containsAll(vars(node))) {
                    filters.add(node);
                }
            }
        });
        for (Filter f : filters) {
            lift(f);
        }
    }

    /** The variables of a filter's condition, those of the patterns of an EXISTS in it included. */
    private static Set<String> vars(Filter f) {
        Set<String> vars = new HashSet<>();
        f.getCondition().visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            @Override
            public void meet(Var node) {
                if (!node.hasValue()) {
                    vars.add(node.getName());
                }
            }
        });
        return vars;
    }

    private static void lift(Filter f) {
        String graph = graphOf(f.getArg());
        if (graph == null) {
            return;
        }
        while (true) {
            QueryModelNode parent = f.getParentNode();
            boolean sameGroup;
            if (parent instanceof Join j) {
                TupleExpr other = j.getLeftArg() == f ? j.getRightArg() : j.getLeftArg();
                sameGroup = graph.isEmpty() || graph.equals(graphOf(other));
            } else {
                sameGroup = (parent instanceof LeftJoin lj && lj.getLeftArg() == f)
                        || (parent instanceof Extension && graph.isEmpty());
            }
            if (!sameGroup) {
                return;
            }
            TupleExpr above = (TupleExpr) parent;
            boolean root = ((AbstractQueryModelNode) above).isVariableScopeChange();
            f.replaceWith(f.getArg());
            above.replaceWith(f);
            f.setArg(above);
            if (root) {
                ((AbstractQueryModelNode) above).setVariableScopeChange(false);
                f.setVariableScopeChange(true);
                return;
            }
        }
    }

    /**
     * The graph the patterns of {@code e} read, outside nested groups of their own: "" for the default
     * graph, the GRAPH variable's name or term otherwise; null where they differ or there is none.
     * RDF4J's parser does not mark the group of a GRAPH as a scope of its own, so its patterns' graph is
     * what tells it from the group around it.
     */
    private static String graphOf(TupleExpr e) {
        Set<String> graphs = new HashSet<>();
        e.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(StatementPattern node) {
                Var c = node.getContextVar();
                graphs.add(c == null ? "" : c.hasValue() ? "<" + c.getValue() + ">" : "?" + c.getName());
            }

            @Override
            protected void meetNode(QueryModelNode node) {
                if (node == e || !(node instanceof AbstractQueryModelNode n) || !n.isVariableScopeChange()) {
                    super.meetNode(node);
                }
            }
        });
        return graphs.size() == 1 ? graphs.iterator().next() : null;
    }
}
