package dev.basalt.sail.query;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.LangMatches;
import org.eclipse.rdf4j.query.algebra.ListMemberOperator;
import org.eclipse.rdf4j.query.algebra.MathExpr;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.SameTerm;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.ParentReferenceCleaner;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;


/**
 * RDF4J's optimizations of a query shape, done once: for a shape's {@link QueryTemplate}, with given
 * bindings, dataset and evaluation mode, the tree that the optimizers before Basalt's step make of the shape's
 * template (sentinels in place of its constants), so that a later query of the shape gets its optimized tree
 * by a clone with its constants put in, and RDF4J's optimizer pipeline runs only from Basalt's step on
 * ({@link PreparedAlgebra}). Those optimizers read no data and no statistics, so nothing held here goes
 * stale when the store changes; Basalt's plan (join order by cardinalities, term ids) is made per evaluation.
 *
 * <p>Why an optimized template is the query's own optimized tree: it is kept only if (1) every slot of the
 * template still has a site after the optimizers ran (none folded away by constant folding); (2) every site is
 * where no optimizer looks at the value, only at its kind, which the shape fixes: a statement pattern or path
 * position, a comparison, {@code sameTerm}, arithmetic, {@code langMatches}, {@code IN}, a {@code BIND} or
 * {@code VALUES} value, and not under an {@code ||} (which RDF4J may turn into a union that relies on its terms
 * being distinct, as sentinels are); (3) the optimizers put in no value the template did not have (RDF4J folds
 * {@code NOW()} into the moment of its optimization, and expressions of constants into their value); (4) the
 * first query's own optimized tree equals the template's with that query's constants put in. Otherwise the
 * shape's entry remembers the key as not reusable and those queries run every optimizer ({@link QueryFront.Entry}).
 * Stateless: static checks, any thread.
 */
final class OptimizedTemplates {
    private OptimizedTemplates() {
    }

    /**
     * The optimized template of {@code template}'s shape, or null if it is not provably {@code own}'s tree for
     * every query of the shape (see the class comment); {@code own} is {@code query}'s own optimized tree.
     */
    static QueryTemplate make(QueryTemplate template, String query, QueryShape shape,
            QueryRoot own, BindingSet bindings, Consumer<QueryRoot> rdf4jSteps) {
        TupleExpr tree = template.tree().clone();
        // as RDF4J's connection roots the parsed tree
        QueryRoot sentinelRoot = tree instanceof QueryRoot root ? root : new QueryRoot(tree);
        if (sharesNodes(template.tree(), sentinelRoot)) {
            return null; // an optimizer changing the clone would change the template
        }
        new ParentReferenceCleaner().optimize(sentinelRoot, null, null);
        try {
            rdf4jSteps.accept(sentinelRoot);
        } catch (RuntimeException e) {
            return null; // an optimizer that fails on a sentinel (a constant expression in error)
        }
        new ParentReferenceCleaner().optimize(sentinelRoot, null, null); // the site checks read parents
        if (sharesNodes(sentinelRoot, sentinelRoot.clone())) {
            return null; // its instantiations would share nodes with it (see fresh)
        }
        Set<Integer> slots = new HashSet<>();
        if (!sitesOnlyWhereValuesAreNotRead(template, sentinelRoot, slots) || !slots.equals(template.slotsWithSites())
                || !allowedValues(template, bindings).containsAll(values(sentinelRoot, template))) {
            return null;
        }
        QueryTemplate optimized = template.over(sentinelRoot);
        try {
            TupleExpr instantiated = optimized.instantiate(query, shape, OptimizedTemplates::fresh);
            return QueryTemplate.canonical(instantiated).equals(QueryTemplate.canonical(own)) ? optimized : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether every sentinel site of {@code tree} is in a place listed in the class comment; collects their slots. */
    private static boolean sitesOnlyWhereValuesAreNotRead(QueryTemplate template, TupleExpr tree,
            Set<Integer> slots) {
        boolean[] ok = { true };
        tree.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            private void site(Value value, QueryModelNode node) {
                int slot = template.sentinelSlot(value);
                if (slot >= 0) {
                    slots.add(slot);
                    ok[0] &= allowedPlace(node);
                }
            }

            @Override
            public void meet(Var node) {
                site(node.getValue(), node);
            }

            @Override
            public void meet(ValueConstant node) {
                site(node.getValue(), node);
            }

            @Override
            public void meet(BindingSetAssignment node) {
                for (BindingSet row : node.getBindingSets()) {
                    for (Binding b : row) {
                        if (template.sentinelSlot(b.getValue()) >= 0) {
                            slots.add(template.sentinelSlot(b.getValue()));
                        }
                    }
                }
            }
        });
        return ok[0];
    }

    /**
     * A clone of an optimized template, its parent references set. Some of RDF4J's clones leave a child's parent
     * pointing into the tree they copied; the optimizers that run after this one would then change the shared
     * template through it. {@link #make} keeps no template whose clones share a node with it.
     */
    static QueryRoot fresh(QueryRoot template) {
        QueryRoot clone = template.clone();
        new ParentReferenceCleaner().optimize(clone, null, null);
        return clone;
    }

    /** The values an optimized template may hold besides its sentinels: the template's and the bindings'. */
    private static Set<Value> allowedValues(QueryTemplate template, BindingSet bindings) {
        Set<Value> allowed = values(template.tree(), template);
        if (bindings != null) {
            bindings.forEach(b -> allowed.add(b.getValue()));
        }
        return allowed;
    }

    /** Whether a node of {@code b} is a node of {@code a} (the same object). */
    private static boolean sharesNodes(QueryModelNode a, QueryModelNode b) {
        Set<QueryModelNode> nodes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        a.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                nodes.add(node);
                super.meetNode(node);
            }
        });
        boolean[] shared = { false };
        b.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                shared[0] |= nodes.contains(node);
                super.meetNode(node);
            }
        });
        return shared[0];
    }

    /**
     * The values in a tree that are not sentinels: an optimizer that computed one (NOW(), folded once, or an
     * expression of constants) made a tree that holds for the moment or the constants it was made with only.
     */
    private static Set<Value> values(TupleExpr tree, QueryTemplate template) {
        Set<Value> values = new HashSet<>();
        Consumer<Value> add = v -> {
            if (v != null && template.sentinelSlot(v) < 0) {
                values.add(v);
            }
        };
        tree.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            @Override
            public void meet(Var node) {
                add.accept(node.getValue());
            }

            @Override
            public void meet(ValueConstant node) {
                add.accept(node.getValue());
            }

            @Override
            public void meet(BindingSetAssignment node) {
                for (BindingSet row : node.getBindingSets()) {
                    row.forEach(b -> add.accept(b.getValue()));
                }
            }
        });
        return values;
    }

    private static boolean allowedPlace(QueryModelNode site) {
        QueryModelNode parent = site.getParentNode();
        boolean allowed = parent instanceof StatementPattern || parent instanceof ArbitraryLengthPath
                || parent instanceof ZeroLengthPath || parent instanceof Compare || parent instanceof SameTerm
                || parent instanceof MathExpr || parent instanceof LangMatches || parent instanceof ListMemberOperator
                || parent instanceof ExtensionElem;
        if (!allowed) {
            return false;
        }
        for (QueryModelNode n = parent; n instanceof ValueExpr; n = n.getParentNode()) {
            if (n instanceof Or) {
                return false;
            }
        }
        return true;
    }
}
